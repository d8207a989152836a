import type { Warehouse } from '../engine/open-warehouse.js';
import { swapRelation } from '../engine/swap-relation.js';
import { MultipleStatementsError } from '../engine/connection.js';
import { ProjectError } from '../errors/project-error.js';
import type { NodePlan } from '../plan/node-plan.js';
import { crashPoint, injectedFailure } from '../test-hooks.js';
import { engine } from '../engine/current-engine.js';
import { refuseReservedWrites } from '../engine/refuse-reserved-writes.js';
import { runAudit } from './run-audit.js';

export interface StatementOutcome {
  rowsDeleted: number;
  rowsInserted: number;
  /** Audits of severity warn that found rows (the publish went on). */
  auditWarnings?: string[];
  /** What warn-count checks found (the publish went on). */
  warnings?: string[];
  rowsWritten?: number;
  partitions: string[];
}

/** What running statements needs of a plan (the backfill preview runs its checks with just these). */
export type StatementsToRun = Pick<NodePlan, 'name' | 'relation' | 'mode' | 'statements'>;

/** Renders a hook's template when it runs (its `template` is its name, `sql` the template), in its model's context. */
export type HookRenderer = (hook: { readonly sql: string; readonly template: string }) => string;

/**
 * Run a plan's statements inside the caller's open transaction. Throws on
 * the first failure; the caller rolls back. Hook templates are rendered by
 * `renderHook` right before they run.
 */
export function runStatements(db: Warehouse, plan: StatementsToRun, renderHook?: HookRenderer): StatementOutcome {
  const outcome: StatementOutcome = { rowsDeleted: 0, rowsInserted: 0, partitions: [] };
  const statements = plan.statements;
  for (let i = 0; i < statements.length; i++) {
    const statement = statements[i]!;
    if (statement.kind === 'exec' && statement.legacyAlter) {
      // A run of such statements (a view's drop and create) shares one withViewsUntouched: views on the relation are put back once it stands again.
      let end = i;
      while (end + 1 < statements.length && statements[end + 1]!.kind === 'exec' && (statements[end + 1] as { legacyAlter?: boolean }).legacyAlter) end += 1;
      const group = statements.slice(i, end + 1);
      withLegacyAlter(db, () => {
        for (const one of group) runStatement(db, plan, one, outcome, renderHook);
      });
      i = end;
      continue;
    }
    const group = batchableRun(statements, i);
    if (group.length > 1 && runBatched(db, plan, group, outcome)) {
      i += group.length - 1;
      continue;
    }
    runStatement(db, plan, statement, outcome, renderHook);
  }
  if (outcome.rowsWritten !== undefined && plan.mode === 'full') outcome.rowsInserted = outcome.rowsWritten;
  return outcome;
}

function runStatement(db: Warehouse, plan: StatementsToRun, statement: StatementsToRun['statements'][number], outcome: StatementOutcome, renderHook: HookRenderer | undefined): void {
  crashPoint();
  switch (statement.kind) {
    case 'exec': {
      const several = MAY_HOLD_SEVERAL.has(statement.role);
      const sql = statement.template === undefined ? statement.sql : renderedHook(plan, statement.sql, statement.template, renderHook);
      // The project's own SQL (hooks, sql_header, a strategy macro) may read mini-dbt's tables, never write them (E230).
      if (several && sql !== '') refuseProjectWrites(plan, statement.role, statement.template, sql);
      // A hook that renders to nothing (a macro that only checks or logs) runs nothing, as dbt's run_hooks skips it.
      const changes = sql === '' ? 0 : runMergeable(db, sql, several ? true : `the ${statement.role} statement of model '${plan.name}'`, statement.doubleMatchRefusal);
      if (statement.role === 'delete') outcome.rowsDeleted += changes;
      if (statement.role === 'insert' || statement.role === 'upsert' || statement.role === 'custom') outcome.rowsInserted += changes;
      injectedFailure(plan.name, statement.role);
      break;
    }
    case 'swap':
      swapRelation(db, statement.staged, statement.target, statement.schema);
      injectedFailure(plan.name, 'swap');
      break;
    case 'require-columns': {
      // The relation's columns as a query of it reports them (a temp table, or one in any schema).
      const have = db.prepare(`select * from ${statement.relation} limit 0`).columnNames();
      // SQL names columns case-insensitively (a unique_key 'ID' is the column id), as SQLite and dbt's adapters do.
      const missing = statement.columns.filter((c) => !have.some((h) => h.toLowerCase() === c.toLowerCase()));
      if (missing.length > 0) {
        throw new ProjectError(
          `${statement.config} column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `'${c}'`).join(', ')} of model '${plan.name}' not in its output; the model produces: ${have.join(', ')}`,
        );
      }
      break;
    }
    case 'assert-none': {
      const count = Number(db.value(statement.sql));
      if (count > 0) {
        const unit = statement.unit ?? 'row';
        const sample = statement.sampleSql ? (db.values(statement.sampleSql) as unknown[]).map((v) => (v === null ? 'NULL' : String(v))) : [];
        const listed = sample.length > 0 ? `: ${sample.join(', ')}${count > sample.length ? ', ...' : ''}` : '';
        throw new ProjectError(`${statement.message} (${count} ${unit}${count === 1 ? '' : 's'}${listed})`, { hint: statement.hint });
      }
      break;
    }
    case 'warn-count': {
      const count = Number(db.value(statement.sql));
      if (count > 0) (outcome.warnings ??= []).push(`${count} ${count === 1 ? 'row has' : 'rows have'} ${statement.message}`);
      break;
    }
    case 'collect-partitions':
      outcome.partitions = (db.values(statement.sql) as unknown[]).map((v) => String(v));
      break;
    case 'count-rows':
      outcome.rowsWritten = Number(db.value(statement.sql));
      break;
    case 'fail':
      throw new ProjectError(statement.message);
    case 'audit':
      runAudit(db, plan, statement, outcome);
      break;
    default: {
      const never: never = statement;
      throw new Error(`unknown statement ${JSON.stringify(never)}`);
    }
  }
}

/**
 * E230 for a project statement of a publish. A strategy macro may write its own model's scratch tables
 * (it is handed `temp_relation`, a name containing `__mini_dbt_`), never the ledger.
 */
function refuseProjectWrites(plan: StatementsToRun, role: string, template: string | undefined, sql: string): void {
  const what = role === 'custom' ? 'the incremental strategy macro' : role === 'sql-header' ? 'the sql_header' : `a ${role}`;
  const file = template?.split('#')[0];
  refuseReservedWrites(sql, `${what}${template !== undefined && role !== 'custom' ? ` (${template})` : ''} of model '${plan.name}'`, file ? { file } : {}, { scratch: role === 'custom' });
}

function renderedHook(plan: StatementsToRun, sql: string, template: string, renderHook: HookRenderer | undefined): string {
  if (!renderHook) throw new Error(`internal: the hook template ${template} of model '${plan.name}' runs without a renderer`);
  return renderHook({ sql, template });
}

type Statement = StatementsToRun['statements'][number];

/** A statement whose SQL runs as it is and whose answer is read afterwards: it can go in a batch. */
function batchable(statement: Statement): boolean {
  if (statement.kind === 'exec') return !statement.legacyAlter && statement.outsideTransaction === undefined && statement.template === undefined && !MAY_HOLD_SEVERAL.has(statement.role);
  return statement.kind === 'require-columns' || statement.kind === 'assert-none' || statement.kind === 'warn-count' || statement.kind === 'collect-partitions' || statement.kind === 'count-rows';
}

/** The batchable statements from `start` on, up to the first that is not. */
function batchableRun(statements: readonly Statement[], start: number): Statement[] {
  let end = start;
  while (end < statements.length && batchable(statements[end]!)) end++;
  return statements.slice(start, end);
}

function batchSql(statement: Statement): string {
  switch (statement.kind) {
    case 'exec': return statement.sql;
    case 'require-columns': return `select * from ${statement.relation} limit 0`;
    case 'assert-none': case 'warn-count': case 'collect-partitions': case 'count-rows': return statement.sql;
    default: throw new Error(`internal: statement ${statement.kind} is not batchable`);
  }
}

/**
 * Run consecutive statements as one batch where the engine sends them
 * together (a server: one round trip instead of one each), reading their
 * answers in order as runStatement would. Anything but a clean pass (the
 * server refused one, a check failed) takes the batch back and returns
 * false: the caller runs them one at a time, which fails exactly where and
 * as it would have. Nothing of the batch is visible before COMMIT either way.
 */
function runBatched(db: Warehouse, plan: StatementsToRun, group: readonly Statement[], outcome: StatementOutcome): boolean {
  if (!db.runBatch || !db.inTransaction) return false;
  for (let n = 0; n < group.length; n++) crashPoint();
  const batch = db.runBatch(group.map(batchSql));
  if (!batch) return false;
  const found = { rowsDeleted: 0, rowsInserted: 0, warnings: [] as string[] } as { rowsDeleted: number; rowsInserted: number; warnings: string[]; partitions?: string[]; rowsWritten?: number };
  for (const [n, statement] of group.entries()) {
    const result = batch.results[n]!;
    const first = result.rows[0]?.[0];
    if (statement.kind === 'exec') {
      if (statement.role === 'delete') found.rowsDeleted += result.changes;
      if (statement.role === 'insert' || statement.role === 'upsert') found.rowsInserted += result.changes;
    } else if (statement.kind === 'require-columns') {
      if (statement.columns.some((c) => !result.fields.some((h) => h.toLowerCase() === c.toLowerCase()))) return undone(batch);
    } else if (statement.kind === 'assert-none') {
      if (Number(first) > 0) return undone(batch);
    } else if (statement.kind === 'warn-count') {
      const count = Number(first);
      if (count > 0) found.warnings.push(`${count} ${count === 1 ? 'row has' : 'rows have'} ${statement.message}`);
    } else if (statement.kind === 'collect-partitions') {
      found.partitions = result.rows.map((r) => String(r[0]));
    } else if (statement.kind === 'count-rows') {
      found.rowsWritten = Number(first);
    }
  }
  outcome.rowsDeleted += found.rowsDeleted;
  outcome.rowsInserted += found.rowsInserted;
  if (found.warnings.length > 0) (outcome.warnings ??= []).push(...found.warnings);
  if (found.partitions) outcome.partitions = found.partitions;
  if (found.rowsWritten !== undefined) outcome.rowsWritten = found.rowsWritten;
  for (const statement of group) if (statement.kind === 'exec') injectedFailure(plan.name, statement.role);
  return true;
}

function undone(batch: { undo(): void }): false {
  batch.undo();
  return false;
}

/** Roles whose SQL may hold several statements (dbt runs hooks, strategy macros and sql_header as scripts); the others embed model SQL. */
const MAY_HOLD_SEVERAL: ReadonlySet<string> = new Set(['pre-hook', 'post-hook', 'custom', 'sql-header']);

/**
 * Run one SQL text and return the rows it changed. Hooks and project
 * strategy macros may hold several statements (`several: true`): those run
 * as a script, and the change count comes from total_changes(). Any other
 * text holding several is refused, naming `several` (what it is), and none
 * of it runs.
 */
export function runSql(db: Warehouse, sql: string, several: true | string): number {
  let statement;
  try {
    statement = db.prepare(sql);
  } catch (err) {
    if (!(err instanceof MultipleStatementsError)) throw err;
    if (several !== true) {
      throw new ProjectError(`${several} holds more than one SQL statement; only hooks and a project's strategy macro may, so none of it was run`, {
        hint: 'a `;` in the model SQL or a config spliced into it (incremental_predicates) ends the statement early',
      });
    }
    return db.runScript(sql);
  }
  return statement.returnsRows ? (statement.all(), 0) : statement.run().changes;
}

/** ALTER TABLE leaving views that name the table alone (SQLite: legacy_alter_table). */
export function withLegacyAlter<T>(db: Warehouse, fn: () => T): T {
  return db.withViewsUntouched(fn);
}

/** runSql, with a native MERGE's refusal of a row matched twice said in the tool's words. */
function runMergeable(db: Warehouse, sql: string, oneStatement: true | string, doubleMatchRefusal: string | undefined): number {
  if (doubleMatchRefusal === undefined) return runSql(db, sql, oneStatement);
  try {
    return runSql(db, sql, oneStatement);
  } catch (err) {
    if (engine.isDoubleMatchError?.(err)) throw new ProjectError(doubleMatchRefusal);
    throw err;
  }
}

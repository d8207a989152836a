import type { Warehouse } from '../db/open-warehouse.js';
import { relationColumns } from '../db/relation-kind.js';
import { swapRelation } from '../db/swap-relation.js';
import { ProjectError } from '../errors/project-error.js';
import type { NodePlan } from '../plan/node-plan.js';
import { crashPoint, injectedFailure } from '../test-hooks.js';
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

/**
 * Run a plan's statements inside the caller's open transaction. Throws on
 * the first failure; the caller rolls back.
 */
export function runStatements(db: Warehouse, plan: StatementsToRun): StatementOutcome {
  const outcome: StatementOutcome = { rowsDeleted: 0, rowsInserted: 0, partitions: [] };
  for (const statement of plan.statements) {
    crashPoint();
    switch (statement.kind) {
      case 'exec': {
        const several = MAY_HOLD_SEVERAL.has(statement.role);
        const run = () => runSql(db, statement.sql, several ? true : `the ${statement.role} statement of model '${plan.name}'`);
        const changes = statement.legacyAlter ? withLegacyAlter(db, run) : run();
        if (statement.role === 'delete') outcome.rowsDeleted += changes;
        if (statement.role === 'insert' || statement.role === 'upsert' || statement.role === 'custom') outcome.rowsInserted += changes;
        injectedFailure(plan.name, statement.role);
        break;
      }
      case 'swap':
        swapRelation(db, statement.staged, statement.target);
        injectedFailure(plan.name, 'swap');
        break;
      case 'require-columns': {
        const name = statement.relation.replace(/^temp\./, '').replace(/^"|"$/g, '').replace(/""/g, '"');
        const schema = statement.relation.startsWith('temp.') ? 'temp' : 'main';
        const have = schema === 'temp'
          ? (db.prepare('select name from temp.pragma_table_info(?)').all(name) as { name: string }[]).map((r) => r.name)
          : relationColumns(db, name).map((c) => c.name);
        const missing = statement.columns.filter((c) => !have.includes(c));
        if (missing.length > 0) {
          throw new ProjectError(
            `${statement.config} column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `'${c}'`).join(', ')} of model '${plan.name}' not in its output; the model produces: ${have.join(', ')}`,
          );
        }
        break;
      }
      case 'assert-none': {
        const count = Number(db.prepare(statement.sql).pluck().get());
        if (count > 0) {
          const unit = statement.unit ?? 'row';
          const sample = statement.sampleSql ? (db.prepare(statement.sampleSql).pluck().all() as unknown[]).map((v) => (v === null ? 'NULL' : String(v))) : [];
          const listed = sample.length > 0 ? `: ${sample.join(', ')}${count > sample.length ? ', ...' : ''}` : '';
          throw new ProjectError(`${statement.message} (${count} ${unit}${count === 1 ? '' : 's'}${listed})`, { hint: statement.hint });
        }
        break;
      }
      case 'warn-count': {
        const count = Number(db.prepare(statement.sql).pluck().get());
        if (count > 0) (outcome.warnings ??= []).push(`${count} ${count === 1 ? 'row has' : 'rows have'} ${statement.message}`);
        break;
      }
      case 'collect-partitions':
        outcome.partitions = (db.prepare(statement.sql).pluck().all() as unknown[]).map((v) => String(v));
        break;
      case 'count-rows':
        outcome.rowsWritten = Number(db.prepare(statement.sql).pluck().get());
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
  if (outcome.rowsWritten !== undefined && plan.mode === 'full') outcome.rowsInserted = outcome.rowsWritten;
  return outcome;
}

/** Roles whose SQL may hold several statements (dbt runs hooks and strategy macros as scripts); the others embed model SQL. */
const MAY_HOLD_SEVERAL: ReadonlySet<string> = new Set(['pre-hook', 'post-hook', 'custom']);

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
    if (!(err instanceof RangeError) || !/more than one statement/.test(err.message)) throw err;
    if (several !== true) {
      throw new ProjectError(`${several} holds more than one SQL statement; only hooks and a project's strategy macro may, so none of it was run`, {
        hint: 'a `;` in the model SQL or a config spliced into it (incremental_predicates) ends the statement early',
      });
    }
    const before = Number(db.prepare('select total_changes()').pluck().get());
    db.exec(sql);
    return Number(db.prepare('select total_changes()').pluck().get()) - before;
  }
  return statement.reader ? (statement.all(), 0) : statement.run().changes;
}

/** ALTER TABLE with legacy_alter_table on: SQLite leaves views naming the table alone. */
export function withLegacyAlter<T>(db: Warehouse, fn: () => T): T {
  const legacy = db.pragma('legacy_alter_table', { simple: true });
  db.pragma('legacy_alter_table = ON');
  try {
    return fn();
  } finally {
    db.pragma(`legacy_alter_table = ${legacy ? 'ON' : 'OFF'}`);
  }
}

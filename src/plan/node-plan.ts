/** What one node will do, with every statement, built before anything runs. */

import type { PlannedStatement } from '../materialize/planned-statement.js';
import type { SchemaChange } from '../materialize/schema-diff.js';

export type PlanMode = 'full' | 'incremental' | 'backfill' | 'view' | 'seed' | 'ephemeral';

/** One microbatch batch: its window and the statements of its own transaction. */
export interface BatchPlan {
  readonly label: string;
  /** The window [start, end) as SQL text. */
  readonly start: string;
  readonly end: string;
  /** begin, lookback, gap (never built), flags, retry. */
  readonly reason: string;
  /** full: this batch creates (or replaces) the table; incremental: it replaces its window. */
  readonly mode: 'full' | 'incremental';
  readonly sql: string;
  readonly statements: readonly PlannedStatement[];
}

export interface NodePlan {
  readonly uniqueId: string;
  readonly name: string;
  readonly relation: string;
  readonly materialization: string;
  readonly strategy?: string;
  readonly mode: PlanMode;
  /** Why this mode: first build, --full-refresh, existing view, is_incremental(). */
  readonly reason: string;
  /** The rendered SELECT. */
  readonly sql: string;
  readonly statements: readonly PlannedStatement[];
  readonly partitionColumn?: string;
  readonly schemaChange?: SchemaChange;
  /** Things a learner should know about this run (printed by run and compile). */
  readonly notes?: readonly string[];
  /** Microbatch models: one publish per batch, in order (statements is then empty). */
  readonly batches?: readonly BatchPlan[];
}

function statementScript(s: PlannedStatement): string {
  switch (s.kind) {
    case 'exec':
      return `-- ${s.role}${s.outsideTransaction ? ` (transaction: false, runs ${s.outsideTransaction === 'before' ? 'before BEGIN' : 'after COMMIT'})` : ''}${s.template !== undefined ? ' (a template: rendered when it runs, as dbt renders hooks)' : ''}\n${s.sql};`;
    case 'swap':
      return `-- ${s.role}\n${s.sql};`;
    case 'require-columns':
      return `-- check: ${s.relation} has the ${s.config} column(s) ${s.columns.join(', ')}`;
    case 'assert-none':
      return `-- check (must return 0): ${s.message}\n${s.sql};`;
    case 'warn-count':
      return `-- check (warns, the publish goes on): rows that have ${s.message}\n${s.sql};`;
    case 'collect-partitions':
      return `-- partitions written (recorded in the run ledger)\n${s.sql};`;
    case 'count-rows':
      return `-- rows written\n${s.sql};`;
    case 'audit':
      return `-- audit ${s.test} (severity ${s.severity}): must pass before COMMIT, else the publish is rolled back\n${s.sql};`;
    case 'fail':
      return `-- the run stops here, before anything is written:\n${s.message.split('\n').map((l) => `--   ${l}`).join('\n')}`;
    default: {
      const never: never = s;
      return never;
    }
  }
}

/**
 * The statements as one SQL script, for `compile` and target/run. A
 * microbatch plan lists its batches, then each batch's transaction (only
 * the first and last when `maxBatches` is smaller than their number).
 */
export function planScript(plan: NodePlan, options: { maxBatches?: number } = {}): string {
  const head = (plan.notes ?? []).map((n) => `-- note: ${n}`);
  if (plan.schemaChange) head.push(`-- on_schema_change: ${plan.schemaChange.mode}: ${plan.schemaChange.action}`);
  const body = plan.statements.map(statementScript);
  if (plan.batches) {
    const list = plan.batches;
    const labels = list.map((b) => `${b.label}${b.reason === 'gap' ? ' (never built)' : ''}`);
    const listed = labels.length > 24 ? [...labels.slice(0, 12), `... ${labels.length - 18} more ...`, ...labels.slice(-6)] : labels;
    head.push(`-- ${list.length} batch${list.length === 1 ? '' : 'es'}, each its own transaction: ${listed.join(', ') || 'none'}`);
    const max = options.maxBatches ?? Infinity;
    const shown = list.length > max ? [list[0]!, list[list.length - 1]!] : list;
    shown.forEach((b, i) => {
      if (shown !== list && i === 1) body.push(`-- ... ${list.length - 2} more batch${list.length === 3 ? '' : 'es'}, the same statements over their own window ...`);
      const index = list.indexOf(b) + 1;
      body.push(`-- batch ${index} of ${list.length}: ${b.label} [${b.start}, ${b.end}) (${b.mode === 'full' ? 'creates the table' : 'replaces its window'})\nbegin;\n\n${b.statements.map(statementScript).join('\n\n')}\n\ncommit;`);
    });
  }
  return [...(head.length > 0 ? [head.join('\n')] : []), ...body].join('\n\n');
}

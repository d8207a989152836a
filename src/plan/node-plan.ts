/** What one node will do, with every statement, built before anything runs. */

export type StatementRole = 'pre-hook' | 'stage' | 'index' | 'delete' | 'insert' | 'swap' | 'drop' | 'create-view' | 'post-hook';

export type PlannedStatement =
  | { readonly kind: 'exec'; readonly role: StatementRole; readonly sql: string }
  /** Replace `target` by the staged table (see swapRelation); `sql` is what it runs. */
  | { readonly kind: 'swap'; readonly role: 'swap'; readonly staged: string; readonly target: string; readonly sql: string }
  /** Fail unless the relation has these columns. */
  | { readonly kind: 'require-columns'; readonly relation: string; readonly columns: readonly string[]; readonly config: string }
  /** Fail when the count query returns more than zero. */
  | { readonly kind: 'assert-none'; readonly sql: string; readonly message: string }
  /** Read the partitions this publish writes (one column of values). */
  | { readonly kind: 'collect-partitions'; readonly sql: string }
  /** Count the rows this publish writes (one number). */
  | { readonly kind: 'count-rows'; readonly sql: string };

export type PlanMode = 'full' | 'incremental' | 'backfill' | 'view' | 'seed';

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
}

/** The statements as one SQL script, for `compile` and target/run. */
export function planScript(plan: NodePlan): string {
  return plan.statements
    .map((s) => {
      switch (s.kind) {
        case 'exec':
        case 'swap':
          return `-- ${s.role}\n${s.sql};`;
        case 'require-columns':
          return `-- check: ${s.relation} has the ${s.config} column(s) ${s.columns.join(', ')}`;
        case 'assert-none':
          return `-- check (must return 0): ${s.message}\n${s.sql};`;
        case 'collect-partitions':
          return `-- partitions written (recorded in the run ledger)\n${s.sql};`;
        case 'count-rows':
          return `-- rows written\n${s.sql};`;
        default: {
          const never: never = s;
          return never;
        }
      }
    })
    .join('\n\n');
}

/** The statements a publish runs, as the statement builders produce them (plan/ composes them into a NodePlan). */

export type StatementRole =
  | 'pre-hook' | 'stage' | 'index' | 'delete' | 'insert' | 'upsert' | 'swap' | 'drop' | 'create-view'
  | 'schema-change' | 'custom' | 'post-hook' | 'sql-header' | 'comment' | 'grant';

export type PlannedStatement =
  | {
    readonly kind: 'exec';
    readonly role: StatementRole;
    readonly sql: string;
    /** Hooks with `transaction: false` run before BEGIN ('before') or after COMMIT ('after'). */
    readonly outsideTransaction?: 'before' | 'after';
    /** Run with legacy_alter_table on, so views naming the table are left alone. */
    readonly legacyAlter?: boolean;
    /** A native MERGE: the message that replaces the engine's when it refuses an existing row matched by two new rows. */
    readonly doubleMatchRefusal?: string;
    /** A hook whose `sql` is still a template, by its name (`models/m.sql#post_hook[0]`): rendered when it runs. */
    readonly template?: string;
  }
  /** Replace `target` by the staged table (see swapRelation); `sql` is what it runs. */
  | { readonly kind: 'swap'; readonly role: 'swap'; readonly staged: string; readonly target: string; readonly schema: string; readonly sql: string }
  /** Fail unless the relation has these columns. */
  | { readonly kind: 'require-columns'; readonly relation: string; readonly columns: readonly string[]; readonly config: string }
  /** Fail when the count query returns more than zero. */
  | AssertNoneStatement
  /**
   * Warn when the count query returns more than zero, and go on: the run
   * prints `<count> rows have <message>` (dbt's behaviour kept, its
   * consequence said).
   */
  | { readonly kind: 'warn-count'; readonly sql: string; readonly message: string }
  /** Read the partitions this publish writes (one column of values). */
  | { readonly kind: 'collect-partitions'; readonly sql: string }
  /** Count the rows this publish writes (one number). */
  | { readonly kind: 'count-rows'; readonly sql: string }
  /** A refusal decided while planning (on_schema_change: fail): the publish stops before it starts. */
  | { readonly kind: 'fail'; readonly message: string }
  /** A data test run on the rows about to be published, before COMMIT (write-audit-publish); see AuditCheck. */
  | AuditStatement;

/**
 * A check on the rows about to be written: `sql` counts the offending rows
 * (or values); anything above zero stops the publish with `message`,
 * followed by the count in `unit`s and, given `sampleSql`, a few of them.
 */
export interface AssertNoneStatement {
  readonly kind: 'assert-none';
  readonly sql: string;
  readonly message: string;
  /** What `sql` counts (default 'row'). */
  readonly unit?: string;
  /** A few offending values (one column), listed in the message. */
  readonly sampleSql?: string;
  readonly hint?: string;
}

/**
 * An audit: `sql` returns dbt's (failures, should_warn, should_error) row for
 * the test against the relation as the publish left it, uncommitted;
 * `failingRowsSql` returns a few of the failing rows for the message.
 */
export interface AuditStatement {
  readonly kind: 'audit';
  readonly test: string;
  readonly severity: 'error' | 'warn';
  readonly sql: string;
  readonly failingRowsSql: string;
  readonly warnIf: string;
  readonly errorIf: string;
  /** --warn-error: finding rows it would warn about stops the publish too. */
  readonly warnError?: boolean;
}

/** Which project hooks: the project file's `on-run-start` or `on-run-end` list. */
export type ProjectHookType = 'on-run-start' | 'on-run-end';

/** One project hook's outcome, as dbt records it (status success | error | skipped). */
export interface ProjectHookResult {
  /** dbt's `<project>.on-run-start.0`. */
  readonly name: string;
  /** dbt's `operation.<project>.<project>-on-run-start-0`. */
  readonly uniqueId: string;
  readonly which: ProjectHookType;
  readonly status: 'success' | 'error' | 'skipped';
  /** `<name> passed`, `<name> failed, error:\n <why>`, `<name> skipped`. */
  readonly message: string;
  readonly executionTime: number;
}

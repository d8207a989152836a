/**
 * What the `state:` and `result:` selector methods compare against (dbt's
 * --state folder): for each node of the project, how it stands against the
 * manifest.json there, and the status run_results.json there gave it. The
 * api layer reads the files (api/selection-state.ts); the graph only asks.
 */
export interface SelectionState {
  /** The state: values a node matches: new or old, and for an old one modified, modified.body, modified.configs, modified.relation or unmodified. */
  readonly flags: (uniqueId: string) => ReadonlySet<string>;
  /** Its status in the state's run_results.json (success, error, fail, warn, pass, skipped, ...), if it is there. */
  readonly result: (uniqueId: string) => string | undefined;
}

/** Whether a selection reads the state folder (a `state:` or `result:` selector among its values). */
export function readsState(selectors: readonly string[] | undefined): boolean {
  return (selectors ?? []).some((s) => /(^|[\s,@+0-9])(state|result):/.test(s));
}

import type { ConfigMap } from '../project/project.js';

export interface Hook {
  readonly sql: string;
  /** false: run outside the publish transaction (pre-hooks before BEGIN, post-hooks after COMMIT). */
  readonly transaction: boolean;
  /**
   * Set when `sql` is still a template: its name (`models/m.sql#post_hook[0]`). It is rendered when
   * the hook runs, as dbt's run_hooks renders it (a post-hook sees the relation its model just built).
   */
  readonly template?: string;
}

/** A pre_hook / post_hook config (a string, {sql, transaction}, or a list of them) as hooks. */
export function configHooks(config: ConfigMap, which: 'pre_hook' | 'post_hook'): Hook[] {
  const raw = config[which];
  const list = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  return list
    .map((h) => (typeof h === 'string' ? { sql: h, transaction: true } : { sql: String((h as { sql?: unknown }).sql ?? ''), transaction: (h as { transaction?: unknown }).transaction !== false }))
    .filter((h) => h.sql.trim() !== '');
}

import type { ModelSettings } from '../config/model-settings.js';
import type { PlannedStatement } from './planned-statement.js';

/**
 * pre_hook / post_hook entries as statements: inside the publish transaction unless `transaction: false`.
 * A template is kept as one, rendered by the executor when the hook runs (dbt's run_hooks); a hook that
 * renders to nothing (a macro call that only checks something) runs nothing, as dbt's run_hooks skips it.
 */
export function hookStatements(settings: ModelSettings, which: 'pre_hook' | 'post_hook'): PlannedStatement[] {
  const role = which === 'pre_hook' ? 'pre-hook' : 'post-hook';
  const outside = which === 'pre_hook' ? 'before' : 'after';
  return (which === 'pre_hook' ? settings.hooks.pre : settings.hooks.post).filter((h) => h.sql.trim() !== '').map((h) => ({
    kind: 'exec',
    role,
    sql: h.sql,
    ...(h.transaction ? {} : { outsideTransaction: outside }),
    ...(h.template !== undefined ? { template: h.template } : {}),
  }) as const);
}

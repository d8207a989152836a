import type { ModelSettings } from '../config/model-settings.js';

/**
 * dbt's trap kept: an incremental model without a unique_key under
 * delete+insert (or the default strategy, which is then append) inserts
 * its rows on every run and deletes nothing, so rerunning a window
 * duplicates its rows. The note a run prints about it, once per model, or
 * undefined when the model is not in that case (an explicit `append` says
 * what it does).
 */
export function keylessAppendNote(settings: ModelSettings): string | undefined {
  if (settings.materialized !== 'incremental' || settings.uniqueKeyColumns.length > 0) return undefined;
  const consequence = "rows are duplicated on each rerun of the same window. Set unique_key to replace.";
  if (!settings.defaultStrategy && settings.strategy === 'delete+insert') return `delete+insert without unique_key appends every run (dbt's behaviour); ${consequence}`;
  if (settings.defaultStrategy) {
    return `no unique_key, so the default strategy is append, which appends every run (dbt's behaviour); ${consequence}`;
  }
  return undefined;
}

import { uniqueKeyColumns } from '../config/model-config.js';

/**
 * dbt's trap kept: an incremental model without a unique_key under
 * delete+insert (or the default strategy, which is then append) inserts
 * its rows on every run and deletes nothing, so rerunning a window
 * duplicates its rows. The note a run prints about it, once per model, or
 * undefined when the model is not in that case (an explicit `append` says
 * what it does).
 */
export function keylessAppendNote(config: Readonly<Record<string, unknown>>): string | undefined {
  if (config.materialized !== 'incremental' || uniqueKeyColumns(config).length > 0) return undefined;
  const strategy = config.incremental_strategy;
  const consequence = "rows are duplicated on each rerun of the same window. Set unique_key to replace.";
  if (strategy === 'delete+insert') return `delete+insert without unique_key appends every run (dbt's behaviour); ${consequence}`;
  if (strategy === undefined || strategy === null || strategy === 'default') {
    return `no unique_key, so the default strategy is append, which appends every run (dbt's behaviour); ${consequence}`;
  }
  return undefined;
}

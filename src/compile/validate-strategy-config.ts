import { BATCH_SIZES, tryParseTime } from '../config/microbatch-time.js';
import { ProjectError, type ErrorLocation } from '../errors/project-error.js';
import { uniqueKeyColumns } from '../config/model-config.js';
import type { ModelNode } from './manifest.js';

const isStringList = (v: unknown) => typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
const given = (v: unknown) => v !== undefined && v !== null;

/**
 * The configs each strategy needs, checked when the project is loaded so
 * every problem is reported before anything runs.
 */
export function validateStrategyConfig(node: ModelNode, strategy: string, at: (needle: string) => ErrorLocation): ProjectError | undefined {
  const { config, name } = node;
  for (const key of ['merge_update_columns', 'merge_exclude_columns', 'incremental_predicates'] as const) {
    if (given(config[key]) && !isStringList(config[key])) return new ProjectError(`model '${name}': ${key} must be a string or a list of strings`, { location: at(key) });
  }
  if (strategy === 'merge') {
    if (uniqueKeyColumns(config).length === 0) {
      return new ProjectError(`model '${name}': incremental_strategy 'merge' needs a unique_key (the upsert's ON CONFLICT columns)`, { location: at('merge') });
    }
    if (given(config.merge_update_columns) && given(config.merge_exclude_columns)) {
      return new ProjectError(`model '${name}': merge_update_columns and merge_exclude_columns cannot both be set`, { location: at('merge_') , hint: 'list the columns to update, or the ones to leave alone, not both' });
    }
  }
  if (strategy === 'insert_overwrite' && !given(config.partition_by)) {
    return new ProjectError(`model '${name}': incremental_strategy 'insert_overwrite' needs partition_by (the column whose partitions are replaced)`, { location: at('insert_overwrite') });
  }
  if (strategy === 'microbatch') {
    if (typeof config.event_time !== 'string' || config.event_time === '') {
      return new ProjectError(`Microbatch model '${name}' must provide an 'event_time' (string) config that indicates the name of the event time column.`, { location: at('microbatch') });
    }
    if (!given(config.begin) || !tryParseTime(config.begin)) {
      return new ProjectError(`Microbatch model '${name}' must provide a 'begin' (datetime) config that indicates the earliest timestamp the model should be built from, like '2024-01-01'; got ${given(config.begin) ? `'${String(config.begin)}'` : 'none'}.`, { location: at('begin') });
    }
    if (!(BATCH_SIZES as readonly unknown[]).includes(config.batch_size)) {
      return new ProjectError(`Microbatch model '${name}' must provide a 'batch_size' config that is one of ${BATCH_SIZES.join(', ')}, but got: ${String(config.batch_size)}.`, { location: at('batch_size') });
    }
    if (given(config.lookback) && !(Number.isInteger(config.lookback) && (config.lookback as number) >= 0)) {
      return new ProjectError(`Microbatch model '${name}': lookback must be a whole number of batches (0 or more), got ${String(config.lookback)}.`, { location: at('lookback') });
    }
  }
  return undefined;
}

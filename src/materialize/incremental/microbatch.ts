import { quoteIdentifier, quoteLiteral } from '../../engine/quote-identifier.js';
import { ProjectError } from '../../errors/project-error.js';
import type { PlannedStatement } from '../planned-statement.js';
import { BATCH_SIZES, tryParseTime } from '../../config/microbatch-time.js';
import { keyIndex, type BatchWindow, type ConfigProblem, type IncrementalStrategy } from './incremental-strategy.js';
import type { NodeConfig } from '../../compile/manifest.js';

/** `"et" >= '2024-09-17' and "et" < '2024-09-18'`: the batch's half-open window. */
export function windowPredicate(window: BatchWindow): string {
  const et = quoteIdentifier(window.eventTime);
  return `${et} >= ${quoteLiteral(window.start)} and ${et} < ${quoteLiteral(window.end)}`;
}

/** Every row a batch writes must fall inside its window, or a later batch would duplicate it. */
export function windowCheck(model: string, relation: string, window: BatchWindow): PlannedStatement {
  return {
    kind: 'assert-none',
    sql: `select count(*) from ${relation} where not (${windowPredicate(window)}) or ${quoteIdentifier(window.eventTime)} is null`,
    message: `model '${model}' produced rows outside batch ${window.label} [${window.start}, ${window.end}) or with NULL event_time '${window.eventTime}'; filter on event_time, or declare event_time on the upstream so it is filtered for you`,
  };
}

const given = (v: unknown) => v !== undefined && v !== null;

/** dbt's microbatch configs: event_time, begin, batch_size (and lookback, a whole number of batches). */
function microbatchProblems(config: NodeConfig, model: string): ConfigProblem[] {
  if (typeof config.event_time !== 'string' || config.event_time === '') {
    return [{ message: `Microbatch model '${model}' must provide an 'event_time' (string) config that indicates the name of the event time column.`, at: 'microbatch' }];
  }
  if (!given(config.begin) || !tryParseTime(config.begin)) {
    return [{ message: `Microbatch model '${model}' must provide a 'begin' (datetime) config that indicates the earliest timestamp the model should be built from, like '2024-01-01'; got ${given(config.begin) ? `'${String(config.begin)}'` : 'none'}.`, at: 'begin' }];
  }
  if (!(BATCH_SIZES as readonly unknown[]).includes(config.batch_size)) {
    return [{ message: `Microbatch model '${model}' must provide a 'batch_size' config that is one of ${BATCH_SIZES.join(', ')}, but got: ${String(config.batch_size)}.`, at: 'batch_size' }];
  }
  if (given(config.lookback) && !(Number.isInteger(config.lookback) && (config.lookback as number) >= 0)) {
    return [{ message: `Microbatch model '${model}': lookback must be a whole number of batches (0 or more), got ${String(config.lookback)}.`, at: 'lookback' }];
  }
  return [];
}

/**
 * microbatch: each batch replaces its window [start, end) on event_time:
 * delete the window (and every incremental predicate), insert the batch's
 * rows. Rerunning a batch gives the same table.
 */
export const microbatchStrategy: IncrementalStrategy = {
  name: 'microbatch',
  validate: (config, model) => microbatchProblems(config, model),
  indexes: (uniqueKey) => keyIndex(uniqueKey),
  deletes: true,
  statements: ({ model, target, newRows, destColumns, predicates, window }) => {
    if (!window) throw new ProjectError(`model '${model}': a microbatch statement needs its batch window`);
    const cols = destColumns.join(', ');
    const where = [windowPredicate(window), ...predicates.map((p) => `(${p})`)];
    // Without known columns (planned before batch 1 creates the table), the new rows have the table's columns in its order.
    const insert = cols ? `insert into ${target} (${cols})\nselect ${cols} from ${newRows}` : `insert into ${target}\nselect * from ${newRows}`;
    return [
      windowCheck(model, newRows, window),
      { kind: 'exec', role: 'delete', sql: `delete from ${target}${predicates.length > 0 ? ' as DBT_INTERNAL_DEST' : ''}\nwhere ${where.join('\n  and ')}` },
      { kind: 'exec', role: 'insert', sql: insert },
    ];
  },
};

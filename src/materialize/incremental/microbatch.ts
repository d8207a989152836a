import { quoteIdentifier, quoteLiteral } from '../../engine/quote-identifier.js';
import { ProjectError } from '../../errors/project-error.js';
import type { PlannedStatement } from '../planned-statement.js';
import { BATCH_SIZES, tryParseTime } from '../../config/microbatch-time.js';
import { keyIndex, type BatchWindow, type ConfigProblem, type IncrementalStrategy } from './incremental-strategy.js';
import type { NodeConfig } from '../../compile/manifest.js';
import { isMicrobatch, type ModelSettings } from '../../config/model-settings.js';

/** `"et" >= '2024-09-17' and "et" < '2024-09-18'`: the batch's half-open window. */
export function windowPredicate(window: BatchWindow): string {
  const et = quoteIdentifier(window.eventTime);
  return `${et} >= ${quoteLiteral(window.start)} and ${et} < ${quoteLiteral(window.end)}`;
}

/**
 * The rows a batch writes outside its window (or with a NULL event_time):
 * its delete covers only its window, so they are never replaced by a rerun
 * of this batch and are written again beside the old ones. dbt writes them
 * (it warns only when no input declares event_time): counted in a warning
 * by default; `rows_outside_batch: error` (mini-dbt's opt-in) refuses the batch.
 */
export function windowCheck(model: string, relation: string, window: BatchWindow, refuse = false): PlannedStatement {
  const sql = `select count(*) from ${relation} where not (${windowPredicate(window)}) or ${quoteIdentifier(window.eventTime)} is null`;
  if (!refuse) {
    return {
      kind: 'warn-count',
      sql,
      message: `event_time '${window.eventTime}' outside batch ${window.label} [${window.start}, ${window.end}) or NULL; a batch deletes only its own window, so each rerun of this batch writes them again (dbt's behaviour; filter on event_time or declare it on the upstream, and rows_outside_batch: error refuses them)`,
    };
  }
  return {
    kind: 'assert-none',
    sql,
    message: `model '${model}' produced rows outside batch ${window.label} [${window.start}, ${window.end}) or with NULL event_time '${window.eventTime}'; filter on event_time, or declare event_time on the upstream so it is filtered for you`,
    hint: 'rows_outside_batch: error refuses them (dbt writes them, and a rerun of the batch writes them again)',
  };
}

/** Whether a model's batches refuse rows outside their window (rows_outside_batch: error). */
export function refusesRowsOutsideBatch(settings: ModelSettings): boolean {
  return isMicrobatch(settings) && settings.rowsOutsideBatch === 'error';
}

const given = (v: unknown) => v !== undefined && v !== null;

/** dbt's microbatch configs: event_time, begin, batch_size (and lookback, a whole number of batches; concurrent_batches, a boolean); mini-dbt's opt-ins rows_outside_batch and fill_gaps. */
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
  if (given(config.concurrent_batches) && typeof config.concurrent_batches !== 'boolean') {
    return [{ message: `Microbatch model '${model}': concurrent_batches must be true or false, got ${JSON.stringify(config.concurrent_batches)}.`, at: 'concurrent_batches' }];
  }
  if (given(config.rows_outside_batch) && config.rows_outside_batch !== 'warn' && config.rows_outside_batch !== 'error') {
    return [{ message: `Microbatch model '${model}' has invalid rows_outside_batch '${String(config.rows_outside_batch)}'; valid: warn (dbt's behaviour: write them and say how many), error.`, at: 'rows_outside_batch' }];
  }
  if (given(config.fill_gaps) && typeof config.fill_gaps !== 'boolean') {
    return [{ message: `Microbatch model '${model}': fill_gaps must be true or false, got ${JSON.stringify(config.fill_gaps)}.`, at: 'fill_gaps', hint: 'fill_gaps: true also rebuilds every batch since begin that the run ledger never recorded as built (dbt builds the lookback only)' }];
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
  statements: (context) => {
    const { model, target, newRows, destColumns, predicates, window } = context;
    if (!window) throw new ProjectError(`model '${model}': a microbatch statement needs its batch window`);
    const cols = destColumns.join(', ');
    const where = [windowPredicate(window), ...predicates.map((p) => `(${p})`)];
    // Without known columns (planned before batch 1 creates the table), the new rows have the table's columns in its order.
    const insert = cols ? `insert into ${target} (${cols})\nselect ${cols} from ${newRows}` : `insert into ${target}\nselect * from ${newRows}`;
    return [
      windowCheck(model, newRows, window, refusesRowsOutsideBatch(context.settings)),
      { kind: 'exec', role: 'delete', sql: `delete from ${target}${predicates.length > 0 ? ' as DBT_INTERNAL_DEST' : ''}\nwhere ${where.join('\n  and ')}` },
      { kind: 'exec', role: 'insert', sql: insert },
    ];
  },
};

import { quoteIdentifier, quoteLiteral } from '../../db/quote-identifier.js';
import { ProjectError } from '../../errors/project-error.js';
import type { PlannedStatement } from '../planned-statement.js';
import type { BatchWindow, IncrementalStrategy } from './incremental-strategy.js';

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

/**
 * microbatch: each batch replaces its window [start, end) on event_time:
 * delete the window (and every incremental predicate), insert the batch's
 * rows. Rerunning a batch gives the same table.
 */
export const microbatchStrategy: IncrementalStrategy = {
  name: 'microbatch',
  needsUniqueKey: false,
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

import { quoteIdentifier, quoteLiteral } from '../engine/quote-identifier.js';
import { Relation, type RelationType } from './relation.js';

/** The batch a microbatch render is for: bounds as SQL text (bare dates at midnight). */
export interface EventTimeBatch {
  readonly label: string;
  readonly start: string;
  readonly end: string;
}

/**
 * What ref()/source() returns inside a microbatch batch: a relation that
 * declares `event_time` renders as a subquery keeping only the batch's rows
 * (`{{ ref('x').render() }}` still gives the bare table). The subquery has
 * no alias, so `from {{ ref('x') }} as o` keeps working.
 */
export function eventTimeRelation(identifier: string, type: RelationType, eventTime: unknown, batch: EventTimeBatch | undefined, empty = false, schema = 'main'): Relation {
  const bare = new Relation(identifier, type, undefined, schema);
  const from = empty ? emptySubquery(bare.render()) : bare.render();
  if (!batch || typeof eventTime !== 'string' || eventTime === '') return empty ? new Relation(identifier, type, from, schema) : bare;
  const et = quoteIdentifier(eventTime);
  // As in dbt, the limited subquery is inside the event-time filter.
  const filtered = `(select * from ${from} where ${et} >= ${quoteLiteral(batch.start)} and ${et} < ${quoteLiteral(batch.end)})`;
  return new Relation(identifier, type, filtered, schema);
}

/**
 * dbt's --empty rendering of a relation (its render_limited with limit 0):
 * the same columns, no rows. Without an alias, as dbt renders it on adapters
 * whose subqueries need none (SQLite needs none), so `from {{ ref('x') }} as o`
 * keeps working.
 */
export function emptySubquery(rendered: string): string {
  return `(select * from ${rendered} where false limit 0)`;
}

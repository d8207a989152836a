import { dialect } from '../engine/current-engine.js';
import { quoteIdentifier, quoteLiteral } from '../engine/quote-identifier.js';
import { Relation, type RelationType } from './relation.js';
import type { RunContext } from '../invocation/run-context.js';
import { boundText } from '../config/microbatch-time.js';

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
  const from = empty ? emptySubquery(bare.render(), identifier) : bare.render();
  if (!batch || typeof eventTime !== 'string' || eventTime === '') return empty ? new Relation(identifier, type, from, schema) : bare;
  const et = quoteIdentifier(eventTime);
  // As in dbt, the limited subquery is inside the event-time filter.
  const filtered = `(select * from ${from} where ${et} >= ${quoteLiteral(batch.start)} and ${et} < ${quoteLiteral(batch.end)})${dialect.subqueryAlias('et_filter', identifier)}`;
  return new Relation(identifier, type, filtered, schema);
}

/**
 * dbt's --empty rendering of a relation (its render_limited with limit 0):
 * the same columns, no rows. Without an alias where the engine's subqueries
 * need none (SQLite), as dbt renders it there, so `from {{ ref('x') }} as o`
 * keeps working; with dbt's alias where they need one (PostgreSQL).
 */
export function emptySubquery(rendered: string, table: string): string {
  return `(select * from ${rendered} where false limit 0)${dialect.subqueryAlias('limit', table)}`;
}

/** --sample's window as the bounds a batch filters refs and sources to (undefined without --sample). */
export function sampleWindowBatch(run: RunContext | undefined): EventTimeBatch | undefined {
  if (!run?.sample) return undefined;
  return { label: 'sample', start: boundText(run.sample.start), end: boundText(run.sample.end) };
}

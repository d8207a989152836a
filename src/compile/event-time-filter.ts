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
export function eventTimeRelation(identifier: string, type: RelationType, eventTime: unknown, batch: EventTimeBatch | undefined): Relation {
  if (!batch || typeof eventTime !== 'string' || eventTime === '') return new Relation(identifier, type);
  const et = quoteIdentifier(eventTime);
  const filtered = `(select * from ${quoteIdentifier(identifier)} where ${et} >= ${quoteLiteral(batch.start)} and ${et} < ${quoteLiteral(batch.end)})`;
  return new Relation(identifier, type, filtered);
}

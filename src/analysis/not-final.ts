import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { relationKind } from '../engine/relation-kind.js';
import { addDays, dateRange, daysBetween, isIsoDate } from '../feed/iso-date.js';
import type { Graph } from '../graph/graph-node.js';
import { timeSourcesOf } from '../state/effective-as-of.js';

export interface NotFinal {
  /** The night it is judged at: var('as_of'), else everything landed so far. */
  readonly as_of: string;
  /** The longest lateness seen in the raw input(s), in days, counting rows landed by the as-of. */
  readonly longest_lateness_days: number;
  /** The raw input(s) the lateness was measured on. */
  readonly inputs: string[];
  /** Each day from as_of - lateness + 1 to the as-of (the latest MAX_LISTED_DAYS of them): rows may still land for it until `final_after`. */
  readonly partitions: { readonly partition: string; readonly final_after: string }[];
  /** Not-final days older than those listed (a feed with an absurdly late row has thousands). */
  readonly partitions_not_listed: number;
  /** Each month with such a day: not final until its last day plus the longest lateness. */
  readonly months: { readonly month: string; readonly final_after: string }[];
}

/**
 * "Not final until": for the recent days, the date after which no more rows
 * are expected for them, from what the feed has shown so far: day + the
 * longest lateness seen (a refund 11 days late means a day is final 11 days
 * after it). A month is final when its last day is. Null without a dated raw
 * input or an as-of.
 */
export function notFinal(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, asOf: string | null): NotFinal | null {
  const night = asOf === null ? null : asOf.slice(0, 10);
  if (night === null || !isIsoDate(night)) return null;
  let longest: number | null = null;
  const inputs: string[] = [];
  for (const source of timeSourcesOf(manifest, graph, node.uniqueId)) {
    const { eventTime, loadedAt } = source.settings;
    if (eventTime === undefined || loadedAt === undefined || relationKind(db, source.alias, source.schema) === null) continue;
    const days = longestLateness(db, qualifiedName(source.schema, source.alias), eventTime, loadedAt, asOf!);
    inputs.push(source.name);
    if (days !== null && (longest === null || days > longest)) longest = days;
  }
  if (longest === null) return null;
  const from = addDays(night, -longest + 1);
  const days = longest === 0 ? [] : dateRange(from, night);
  const listed = days.slice(Math.max(0, days.length - MAX_LISTED_DAYS));
  const partitions = listed.map((p) => ({ partition: p, final_after: addDays(p, longest!) }));
  const months = [...new Set(days.map((p) => p.slice(0, 7)))].map((month) => ({ month, final_after: addDays(lastDayOfMonth(month), longest!) }));
  return { as_of: night, longest_lateness_days: longest, inputs, partitions, partitions_not_listed: days.length - listed.length, months };
}

/** The most recent not-final days listed one by one. */
const MAX_LISTED_DAYS = 400;

/** Beyond this many days of history, one grouped scan beats a seek per day. */
const MAX_SEEK_DAYS = 20000;

/**
 * Loaded-at day minus event day, the largest over rows landed by the as-of.
 * When the event column holds plain dates (its first and last values are
 * YYYY-MM-DD), one seek per day of history: the latest loaded-at of that
 * day, through an (event, loaded-at) index such as the example's (a few ms
 * for three years); otherwise one scan grouped on the event value.
 */
function longestLateness(db: Warehouse, table: string, eventTime: string, loadedAt: string, asOf: string): number | null {
  const event = quoteIdentifier(eventTime);
  const loaded = quoteIdentifier(loadedAt);
  const first = db.value(`select min(${event}) from ${table}`);
  const last = db.value(`select max(${event}) from ${table}`);
  const night = asOf.slice(0, 10);
  if (isIsoDate(first) && isIsoDate(last) && first <= night && daysBetween(first, last < night ? last : night) <= MAX_SEEK_DAYS) {
    const value = db.value(
      `select max(cast(${dialect.dayNumber(dialect.dateOf(`(select max(${loaded}) from ${table} where ${event} = days.value and ${loaded} <= @asOf)`))} - ${dialect.dayNumber('days.value')} as integer))
       from ${dialect.jsonTexts('@days', 'days')}`,
      { days: JSON.stringify(dateRange(first, last < night ? last : night)), asOf },
    );
    return value === null || value === undefined ? null : Math.max(0, Number(value));
  }
  const dayNumber = (expr: string) => `(case when ${dialect.dateOf(expr)} between '1000-01-01' and '9999-12-31' then ${dialect.dayNumber(dialect.dateOf(expr))} end)`;
  const value = db.value(
    `select max(cast(${dayNumber('last_loaded')} - ${dayNumber('e')} as integer)) from (
       select ${event} as e, max(${loaded}) as last_loaded from ${table} where cast(${loaded} as text) <= @asOf group by ${event})`,
    { asOf },
  );
  return value === null || value === undefined ? null : Math.max(0, Number(value));
}

function lastDayOfMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return addDays(`${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}-01`, -1);
}

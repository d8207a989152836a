import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier, qualifiedName } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { addDays, EARLIEST_DATE, isIsoDate } from '../feed/iso-date.js';
import type { Graph } from '../graph/graph-node.js';
import { timeSourcesOf } from '../state/effective-as-of.js';

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}/;

/**
 * An incremental run rewrites the window as_of minus lookback_days through
 * as_of. When that window starts after the newest row that landed in the
 * model's inputs (their event_time, else loaded_at), the run reads nothing
 * and changes nothing: almost always an as_of in the future or a typo. The
 * warning, or undefined. One max() per input, served by its index.
 */
export function windowAfterLanded(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode): string | undefined {
  const asOf = manifest.vars.as_of;
  const lookback = Number(manifest.vars.lookback_days ?? 0);
  if (!isIsoDate(asOf) || asOf < EARLIEST_DATE || !Number.isInteger(lookback) || lookback < 0 || lookback > 36_500) return undefined;
  const start = addDays(asOf, -lookback);
  let newest: { value: string; column: string } | undefined;
  for (const source of timeSourcesOf(manifest, graph, node.uniqueId)) {
    if (relationKind(db, source.alias, source.schema) !== 'table') continue;
    const column = source.settings.eventTime ?? source.settings.loadedAt!;
    const value: unknown = db.value(`select max(${quoteIdentifier(column)}) from ${qualifiedName(source.schema, source.alias)}`);
    if (typeof value !== 'string' || !DATE_LIKE.test(value)) continue;
    if (newest === undefined || value > newest.value) newest = { value, column };
  }
  if (newest === undefined || start <= newest.value) return undefined;
  return `the window ${start}..${asOf} lies after the newest ${newest.column} that landed (${newest.value}): this run changes nothing`;
}

import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import type { Graph } from '../graph/graph-node.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import { rowIdColumn } from '../execute/row-id-column.js';

export interface KeyPartitions {
  /** The raw input(s) the keys were looked up in. */
  readonly inputs: string[];
  readonly keyColumn: string;
  /** Each key and the days its versions belong to (an order whose date moved has two). */
  readonly keys: { readonly key: string; readonly partitions: string[] }[];
  /** Every partition the keys touch, sorted. */
  readonly partitions: string[];
}

/**
 * The partitions a list of entity keys (orders) touch: the event days of
 * every version of each key landed by the as-of, in the model's dated raw
 * inputs that have the key column. Every version counts, so an order whose
 * day changed rewrites both its old day (to take it out) and its new one.
 * A key with no row is refused (E171): a typo would otherwise rewrite nothing.
 * Without `keyColumn`, the raw input's id column by the convention the late
 * rows line and explain-order follow (`id` or the first `*_id` column): raw
 * feeds hold several versions per key, so no yml key declares it.
 */
export function keyPartitions(
  db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, given: string | undefined, keys: readonly string[], asOf: string | null,
): KeyPartitions {
  const sources = timeSourcesOf(manifest, graph, node.uniqueId).filter((s) => s.settings.eventTime !== undefined && relationKind(db, s.alias, s.schema) !== null);
  if (sources.length === 0) {
    throw new ProjectError(`model '${node.name}' reads no raw input that declares event_time and loaded_at, so keys cannot be traced to partitions`, {
      hint: 'declare them in the seed or source yml: config: {event_time: order_date, loaded_at: load_date}',
    });
  }
  const keyColumn = given ?? sources.map((s) => rowIdColumn(db, s.alias, s.schema, [s.settings.eventTime!, s.settings.loadedAt ?? ''])).find((c) => c !== null);
  if (keyColumn === undefined || keyColumn === null) {
    throw new ProjectError(`--keys needs --key-column: ${sources.map((s) => s.name).join(', ')} has no id or *_id column to take the keys from`, {
      hint: `e.g. mini-dbt backfill ${node.name} --keys 50044,50071 --key-column order_id --reason "..."`,
    });
  }
  const withKey = sources.filter((s) => relationColumns(db, s.alias, { schema: s.schema }).some((c) => c.name === keyColumn));
  if (withKey.length === 0) {
    const columns = [...new Set(sources.flatMap((s) => relationColumns(db, s.alias, { schema: s.schema }).map((c) => c.name)))];
    throw new ProjectError(`--key-column '${keyColumn}' is not a column of ${sources.map((s) => `'${s.name}'`).join(' or ')}, the raw input of '${node.name}'.${didYouMeanSuffix(keyColumn, columns)}`, {
      hint: `columns: ${columns.join(', ')}`,
    });
  }
  const found = new Map<string, Set<string>>();
  for (const source of withKey) {
    const { eventTime, loadedAt } = source.settings;
    const landed = asOf === null || loadedAt === undefined ? '' : ` and cast(${quoteIdentifier(loadedAt)} as text) <= @asOf`;
    const rows = db.prepare(
      `select distinct cast(${quoteIdentifier(keyColumn)} as text) as k, ${dialect.dayOrText(quoteIdentifier(eventTime!))} as p
       from ${qualifiedName(source.schema, source.alias)}
       where cast(${quoteIdentifier(keyColumn)} as text) in (select keys.value from ${dialect.jsonTexts('@keys', 'keys')})${landed}`,
    ).all({ keys: JSON.stringify(keys), ...(asOf === null ? {} : { asOf }) }) as { k: string; p: string | null }[];
    for (const { k, p } of rows) if (p !== null) (found.get(k) ?? found.set(k, new Set()).get(k)!).add(String(p));
  }
  const missing = keys.filter((k) => !found.has(k));
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? `, ... (${missing.length} in all)` : '');
    throw new ProjectError(`no row of ${withKey.map((s) => `'${s.name}'`).join(' or ')} has ${keyColumn} ${shown}${asOf === null ? '' : ` (landed by ${asOf})`}; nothing was written`, {
      hint: `--keys takes values of ${keyColumn} as they are in the raw input (a key must have landed by the as-of)`,
    });
  }
  const perKey = keys.map((key) => ({ key, partitions: [...found.get(key)!].sort() }));
  return { inputs: withKey.map((s) => s.name), keyColumn, keys: perKey, partitions: [...new Set(perKey.flatMap((k) => k.partitions))].sort() };
}

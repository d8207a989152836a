import type { Manifest, ModelNode, SeedNode, SourceNode } from '../compile/manifest.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { hasTextAffinity } from '../engine/text-affinity.js';
import type { Graph } from '../graph/graph-node.js';
import { timeSourcesOf, type SourceKind } from '../state/effective-as-of.js';
import type { LateRowSample, LateRowsNotApplied } from '../state/node-result.js';
import { rowIdColumn } from './row-id-column.js';

/** Rows of each late partition kept as a sample (the run line names a few ids; replay says why a day went stale). */
const SAMPLE_PER_PARTITION = 5;

/**
 * The as-of of the model's previous successful run (not this invocation's),
 * read before this run's ledger row exists. Null on a first run. The ledger
 * is there: a run creates it before any of its nodes runs.
 */
export function previousAsOf(db: Warehouse, model: string, invocationId: string): string | null {
  const value = db.value("select as_of from _mini_dbt_node_runs where model = ? and status = 'success' and as_of is not null and invocation_id <> ? order by id desc limit 1", model, invocationId);
  return value === undefined || value === null ? null : String(value);
}

/**
 * What an incremental run left behind: rows of the model's raw inputs (the
 * seeds and sources upstream declaring event_time and loaded_at) that landed
 * after `after` (the previous run's as-of) and by `asOf`, for a partition
 * (event_time's day) before `window[0]`, the first partition the run rewrote.
 * Such a row belongs to a day no run will rewrite again unless someone
 * backfills it. One query a raw input, through its loaded-at index: the
 * rows that landed tonight, then those whose day is before the window.
 */
export function lateRowsNotApplied(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, after: string, asOf: string, window: readonly [string, string], kindOf: SourceKind = (s) => relationKind(db, s.alias, s.schema)): LateRowsNotApplied | undefined {
  const counts = new Map<string, number>();
  const sample: LateRowSample[] = [];
  // Only raw inputs that say which day a row belongs to and when it landed can tell; without one, nothing is claimed.
  const sources = timeSourcesOf(manifest, graph, node.uniqueId).filter((s) => s.settings.eventTime !== undefined && kindOf(s) === 'table');
  if (sources.length === 0) return undefined;
  if (after < asOf) {
    for (const source of sources) {
      const { sql, idColumn } = lateRowsQuery(db, source);
      const rows = db.prepare(sql).all({ after, asOf, start: window[0] }) as { partition: string; id: unknown; loaded_at: string; rows_in_partition: number }[];
      for (const r of rows) {
        if (!counts.has(`${source.name}\u0000${r.partition}`)) {
          counts.set(`${source.name}\u0000${r.partition}`, Number(r.rows_in_partition));
        }
        sample.push({ source: source.name, id_column: idColumn, id: r.id, partition: String(r.partition), loaded_at: r.loaded_at });
      }
    }
  }
  const byPartition = new Map<string, number>();
  for (const [key, n] of counts) {
    const partition = key.slice(key.indexOf('\u0000') + 1);
    byPartition.set(partition, (byPartition.get(partition) ?? 0) + n);
  }
  const partitions = [...byPartition].sort(([a], [b]) => a.localeCompare(b)).map(([partition, rows]) => ({ partition, rows }));
  return { rows: partitions.reduce((n, p) => n + p.rows, 0), landed_after: after, landed_by: asOf, window, partitions, sample };
}

/**
 * The one query a raw input costs: its rows with loaded_at in (@after, @asOf]
 * and event time before @start, up to 5 a partition, with each partition's
 * count. The two-sided loaded_at range is what SQLite seeks (a night's rows,
 * on the loaded-at index); the event-time bound alone would walk the whole
 * history on the (event_time, loaded_at) index.
 */
export function lateRowsQuery(db: Warehouse, source: SeedNode | SourceNode): { sql: string; idColumn: string | null } {
  const eventTime = source.settings.eventTime!;
  const loadedAt = source.settings.loadedAt!;
  const idColumn = rowIdColumn(db, source.alias, source.schema, [eventTime, loadedAt]);
  // A TEXT column compares as it is, so its index serves the range; anything else is compared as text.
  const asText = (column: string) => (hasTextAffinity(db, source.alias, column, source.schema) ? quoteIdentifier(column) : dialect.castText(quoteIdentifier(column)));
  const l = asText(loadedAt);
  const e = asText(eventTime);
  const day = dialect.dayOrText(quoteIdentifier(eventTime));
  const id = idColumn === null ? 'null' : quoteIdentifier(idColumn);
  const sql = `
    select partition, id, loaded_at, rows_in_partition from (
      select ${day} as partition, ${id} as id, ${dialect.castText(quoteIdentifier(loadedAt))} as loaded_at,
             count(*) over (partition by ${day}) as rows_in_partition,
             row_number() over (partition by ${day} order by ${l}, ${id}) as n
      from ${qualifiedName(source.schema, source.alias)}
      where ${l} > @after and ${l} <= @asOf and ${e} < @start
    ) as late_rows where n <= ${SAMPLE_PER_PARTITION}
    order by partition, n`;
  return { sql, idColumn };
}

/**
 * Fast stale's raw-table work, through the raw table's indexes instead of a
 * full scan, when the table has them: an index led by the event-time column
 * and an index led by the loaded-at column (the example's raw_orders has
 * both). The result is exactly what the full-scan queries in fast-stale.ts
 * give:
 *
 * - rows that landed after a written partition's as-of all have loaded_at
 *   above the smallest of those as-ofs (and the as-of asked about), so the
 *   scan starts there, on the loaded-at index;
 * - partitions never written (or written with no as-of) are found by walking
 *   the distinct event values on the event-time index (a seek per value, not
 *   a read per row) and counted through the same index;
 * - the partitions checked come from the same walk.
 *
 * Returns null (use the full scans) when an index is missing, loaded_at is
 * not a TEXT column (the comparisons are on its text), or an event time is
 * NULL.
 */
import type { Warehouse } from '../engine/open-warehouse.js';
import { columnLeadsIndex } from '../engine/column-leads-index.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { hasTextAffinity } from '../engine/text-affinity.js';
import type { FastStalePartition } from './fast-stale.js';
import { greater, lesser } from './pairwise-extremes.js';

export interface IndexedLateRows {
  readonly rows: FastStalePartition[];
  /** Partitions with raw rows landed by the as-of. */
  readonly partitions: string[];
}

export function indexedLateRows(db: Warehouse, table: string, eventTime: string, loadedAt: string, model: string, asOf: string, schema = 'main'): IndexedLateRows | null {
  if (!columnLeadsIndex(db, table, eventTime, schema) || !columnLeadsIndex(db, table, loadedAt, schema) || !hasTextAffinity(db, table, loadedAt, schema)) return null;
  const t = qualifiedName(schema, table);
  const e = quoteIdentifier(eventTime);
  const l = quoteIdentifier(loadedAt);
  if (Number(db.value(`select exists (select 1 from ${t} where ${e} is null)`)) === 1) return null;

  const lastWrite = `last_write as (
    select p.partition, p.as_of
    from _mini_dbt_partitions p
    join (select partition, max(node_run_id) as id from _mini_dbt_partitions where model = @model group by partition) l
      on l.partition = p.partition and l.id = p.node_run_id
    where p.model = @model
  )`;
  const params = { model, asOf };
  // Written partitions with an as-of: the rows between that as-of and the one asked about.
  const floor = db.value(`with ${lastWrite} select min(${lesser('as_of', 'cast(@asOf as text)')}) from last_write where as_of is not null`, params) as string | null;
  const late = floor === null ? [] : (db.prepare(`
    with ${lastWrite},
    raw as (
      select ${dialect.dayOrText(e)} as partition, ${dialect.castText(l)} as loaded_at
      from ${t} where ${l} > @floor
    )
    select raw.partition as partition, lw.as_of as last_as_of, count(*) as late_rows,
           min(raw.loaded_at) as first_loaded, max(raw.loaded_at) as last_loaded
    from raw join last_write lw on lw.partition = raw.partition
    where lw.as_of is not null and raw.loaded_at > ${lesser('lw.as_of', 'cast(@asOf as text)')} and raw.loaded_at <= ${greater('lw.as_of', 'cast(@asOf as text)')}
    group by raw.partition, lw.as_of
    order by 1`).all({ ...params, floor }) as FastStalePartition[]);

  // Every distinct event value, one index seek each.
  const values = `values_ (v) as (
    select (select min(${e}) from ${t})
    union all
    select (select min(${e}) from ${t} where ${e} > values_.v) from values_ where values_.v is not null
  ),
  parts as (select v, ${dialect.dayOrText('v')} as partition from values_ where v is not null)`;
  // Partitions never written, or written with no as-of: every row landed by the as-of.
  // (Materialized first, so only their rows are joined, through the event-time index.)
  const open = db.prepare(`
    with recursive ${values}, ${lastWrite},
    open_parts as materialized (
      select o.v, o.partition from parts o left join last_write lw on lw.partition = o.partition
      where lw.partition is null or lw.as_of is null
    )
    select o.partition as partition, null as last_as_of, count(*) as late_rows,
           min(cast(r.${l} as text)) as first_loaded, max(cast(r.${l} as text)) as last_loaded
    from open_parts o join ${t} r on r.${e} = o.v
    where cast(r.${l} as text) <= @asOf
    group by o.partition
    order by 1`).all(params) as FastStalePartition[];
  const partitions = db.values(`
    with recursive ${values}
    select distinct partition from parts where exists (select 1 from ${t} where ${e} = parts.v and cast(${l} as text) <= @asOf)`, { asOf }) as string[];
  return { rows: [...late, ...open], partitions };
}

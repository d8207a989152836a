import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier, qualifiedName } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { relationKind } from '../engine/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import type { Graph } from '../graph/graph-node.js';
import { indexedLateRows } from './indexed-late-rows.js';
import { greater, lesser } from './pairwise-extremes.js';
import { timeColumns } from './time-columns.js';
import { hasTimeOfDay } from '../feed/iso-hour.js';

export interface FastStalePartition {
  readonly partition: string;
  /** The as-of of the run that last wrote it; null when the ledger never recorded it. */
  readonly last_as_of: string | null;
  /** Raw rows for it that landed after that as-of (up to the as-of asked about). */
  readonly late_rows: number;
  readonly first_loaded: string;
  readonly last_loaded: string;
}

export interface FastStale {
  readonly partitionColumn: string;
  readonly partitionsChecked: number;
  readonly stale: string[];
  readonly details: FastStalePartition[];
}

/**
 * Fast staleness, without rebuilding the model: a partition is stale when
 * raw rows for it landed after the as-of of the run that last wrote it (from
 * the ledger's _mini_dbt_partitions), or when it has raw rows and was never
 * written. It assumes partition P of the model depends on the raw rows whose
 * event time falls on P, which is what partition_by + event_time declare.
 * When `asOf` is earlier than a partition's last write, rows that landed in
 * between count too (the table is ahead of the as-of asked about).
 */
export function fastStale(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, asOf: string): FastStale {
  const part = node.settings.partitionColumn;
  if (!part) {
    throw new ProjectError(`model '${node.name}' declares no partition_by, so the fast mode has no partitions to check`, { hint: 'drop --fast to diff against a full rebuild' });
  }
  const sources = timeSourcesOf(manifest, graph, node.uniqueId);
  if (sources.length === 0) {
    throw new ProjectError(`no seed or source upstream of '${node.name}' declares loaded_at, so the fast mode cannot tell when rows landed`, {
      hint: 'declare event_time and loaded_at in the yml of its raw source, or drop --fast',
    });
  }
  // A model built but never given a row (every row landed later) still has a
  // ledger: its partitions with raw rows are then all stale, not unknown.
  const built = Number(db.value("select count(*) from _mini_dbt_node_runs where model = ? and status = 'success'", node.name));
  if (built === 0) {
    throw new ProjectError(`the run ledger has no successful run of '${node.name}'`, { hint: 'build it with mini-dbt run first, or drop --fast' });
  }
  // The fast mode maps each raw row to its event time's day; a model whose partitions are hours would be
  // compared day against hour, and every day would read as never written.
  const recorded = db.value('select partition from _mini_dbt_partitions where model = ? and partition is not null limit 1', node.name);
  if (typeof recorded === 'string' && hasTimeOfDay(recorded)) {
    throw new ProjectError(`model '${node.name}' writes partitions by time of day (${recorded}); the fast mode maps raw rows to days, so it cannot check them`, {
      hint: 'drop --fast: the exact mode (or --candidates) compares the partitions themselves',
    });
  }
  const byPartition = new Map<string, FastStalePartition>();
  const checked = new Set<string>((db.values('select distinct partition from _mini_dbt_partitions where model = ?', node.name) as unknown[]).map(String));
  for (const source of sources) {
    if (relationKind(db, source.alias, source.schema) === null) continue;
    const { eventTime, loadedAt } = timeColumns(source);
    const event = quoteIdentifier(eventTime);
    const loaded = quoteIdentifier(loadedAt);
    const indexed = indexedLateRows(db, source.alias, eventTime, loadedAt, node.name, asOf, source.schema);
    const rows = indexed?.rows ?? db.prepare(`
      with last_write as (
        select p.partition, p.as_of
        from _mini_dbt_partitions p
        join (select partition, max(node_run_id) as id from _mini_dbt_partitions where model = @model group by partition) l
          on l.partition = p.partition and l.id = p.node_run_id
        where p.model = @model
      ),
      raw as (
        select ${dialect.dayOrText(event)} as partition, ${dialect.castText(loaded)} as loaded_at
        from ${qualifiedName(source.schema, source.alias)}
      )
      select raw.partition as partition, lw.as_of as last_as_of, count(*) as late_rows,
             min(raw.loaded_at) as first_loaded, max(raw.loaded_at) as last_loaded
      from raw left join last_write lw on lw.partition = raw.partition
      where (lw.partition is null and raw.loaded_at <= @asOf)
         or (lw.partition is not null and lw.as_of is null and raw.loaded_at <= @asOf)
         or (raw.loaded_at > ${lesser('lw.as_of', 'cast(@asOf as text)')} and raw.loaded_at <= ${greater('lw.as_of', 'cast(@asOf as text)')})
      group by raw.partition, lw.as_of
      order by 1`).all({ model: node.name, asOf }) as FastStalePartition[];
    for (const r of rows) {
      const seen = byPartition.get(r.partition);
      byPartition.set(r.partition, seen
        ? { ...seen, late_rows: seen.late_rows + r.late_rows, first_loaded: min(seen.first_loaded, r.first_loaded), last_loaded: max(seen.last_loaded, r.last_loaded) }
        : { ...r, late_rows: Number(r.late_rows) });
    }
    const partitions = indexed?.partitions ?? (db.values(`select distinct ${dialect.dayOrText(event)} from ${qualifiedName(source.schema, source.alias)} where cast(${loaded} as text) <= ?`, asOf) as unknown[]);
    for (const p of partitions) checked.add(String(p));
  }
  const details = [...byPartition.values()].sort((a, b) => a.partition.localeCompare(b.partition));
  return { partitionColumn: part, partitionsChecked: checked.size, stale: details.map((d) => d.partition), details };
}

const min = (a: string, b: string) => (a < b ? a : b);
const max = (a: string, b: string) => (a > b ? a : b);

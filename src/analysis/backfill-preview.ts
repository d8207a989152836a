import type { Manifest, ModelNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import type { Warehouse } from '../db/open-warehouse.js';
import { quoteIdentifier } from '../db/quote-identifier.js';
import { relationKind } from '../db/relation-kind.js';
import { uniqueKeyColumns } from '../config/model-config.js';
import { ProjectError } from '../errors/project-error.js';
import { timeSourcesOf } from '../execute/effective-as-of.js';
import type { Graph } from '../graph/graph-node.js';
import { partitionColumn } from '../plan/plan-model.js';
import type { PartitionRange } from './minimal-ranges.js';

export interface BackfillPreview {
  readonly start: string;
  readonly end: string;
  /** The partitions the backfill run would write (its SELECT run read-only now). */
  readonly partitions: string[];
  /** Rows the backfill would write. */
  readonly rows: number;
  /** Raw rows with an event time in the range, landed by the as-of: what the run reads. */
  readonly rawRows: number;
  /** Raw rows landed by the as-of: what a full reload reads. */
  readonly fullReloadRawRows: number;
  /** The checks made on the rows before anything is written (the key: unique_key, else the partition column). */
  readonly checks: readonly string[];
}

/**
 * What a backfill of one range would write, computed read-only: render the
 * model's incremental branch with start/end vars (manifest must carry them),
 * run that SELECT, and count the raw rows it reads. Refuses a model that
 * would write partitions outside the range (it ignores start/end).
 */
export function previewBackfill(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, range: PartitionRange, asOf: string | null): BackfillPreview {
  const part = partitionColumn(node);
  if (!part) throw new ProjectError(`model '${node.name}' declares no partition_by, so there is no range to backfill`, { hint: `declare it: {{ config(partition_by='order_date') }}, or rebuild it: mini-dbt run --select ${node.name}` });
  const { sql } = renderModel(manifest, node, { db, forceIncremental: true });
  const key = uniqueKeyColumns(node.config);
  const keyColumns = key.length > 0 ? key : [part];
  const cols = keyColumns.map(quoteIdentifier).join(', ');
  // One evaluation of the model's SELECT (materialized once) for the partitions it writes and the key checks.
  let stats: { kind: 'dups' | 'nulls' | 'p'; p: string | null; n: number }[];
  try {
    stats = db.prepare(`with w as materialized (\n${sql}\n)
      select 'p' as kind, cast(${quoteIdentifier(part)} as text) as p, count(*) as n from w group by 2
      union all select 'nulls', null, count(*) from w where ${keyColumns.map((c) => `${quoteIdentifier(c)} is null`).join(' or ')}
      union all select 'dups', null, count(*) from (select ${cols} from w group by ${cols} having count(*) > 1)
      order by 1, 2`).all() as typeof stats;
  } catch (err) {
    throw new ProjectError(`the backfill query of '${node.name}' failed: ${err instanceof Error ? err.message : String(err)}`, { location: { file: node.file.path } });
  }
  const written = stats.filter((r) => r.kind === 'p') as { p: string; n: number }[];
  const count = (kind: 'dups' | 'nulls') => Number(stats.find((r) => r.kind === kind)?.n ?? 0);
  const outside = written.filter((w) => w.p === null || w.p < range.start || w.p > range.end);
  if (outside.length > 0) {
    throw new ProjectError(
      `model '${node.name}' would write ${outside.length} partition(s) outside ${range.start}..${range.end} (${outside.slice(0, 3).map((o) => o.p).join(', ')}${outside.length > 3 ? ', ...' : ''}): it ignores the start/end vars`,
      { location: { file: node.file.path }, hint: "filter its incremental branch on the range, e.g. where order_date between '{{ var(\"start\") }}' and '{{ var(\"end\") }}'" },
    );
  }
  const checks = keyChecks(node, keyColumns, key.length > 0, count('nulls'), count('dups'));
  let rawRows = 0;
  let fullReloadRawRows = 0;
  for (const source of timeSourcesOf(manifest, graph, node.uniqueId)) {
    if (relationKind(db, source.alias) === null || typeof source.config.event_time !== 'string') continue;
    const event = `coalesce(date(${quoteIdentifier(source.config.event_time)}), cast(${quoteIdentifier(source.config.event_time)} as text))`;
    const loaded = `cast(${quoteIdentifier(String(source.config.loaded_at))} as text)`;
    const table = quoteIdentifier(source.alias);
    const landed = asOf === null ? '1 = 1' : `${loaded} <= @asOf`;
    const params = asOf === null ? { start: range.start, end: range.end } : { start: range.start, end: range.end, asOf };
    rawRows += Number(db.prepare(`select count(*) from ${table} where ${event} between @start and @end and ${landed}`).pluck().get(params));
    const all = db.prepare(`select count(*) from ${table} where ${landed}`).pluck();
    fullReloadRawRows += Number(asOf === null ? all.get() : all.get({ asOf }));
  }
  return { start: range.start, end: range.end, partitions: written.map((w) => w.p), rows: written.reduce((s, w) => s + Number(w.n), 0), rawRows, fullReloadRawRows, checks };
}

/** Key not null and unique among the rows the backfill would write; a ProjectError otherwise. */
function keyChecks(node: ModelNode, columns: readonly string[], isUniqueKey: boolean, nulls: number, duplicates: number): string[] {
  if (nulls > 0) throw new ProjectError(`model '${node.name}' would write ${nulls} row(s) with a NULL key (${columns.join(', ')}); nothing was written`, { location: { file: node.file.path } });
  if (duplicates > 0 && isUniqueKey) {
    throw new ProjectError(`model '${node.name}' would write ${duplicates} duplicate key value(s) of (${columns.join(', ')}); nothing was written`, { location: { file: node.file.path } });
  }
  return [`${columns.join(', ')} not null`, ...(isUniqueKey ? [`${columns.join(', ')} unique`] : [])];
}

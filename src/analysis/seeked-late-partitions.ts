import type { Manifest, ModelNode } from '../compile/manifest.js';
import { columnLeadsIndex } from '../engine/column-leads-index.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationColumns } from '../engine/relation-kind.js';
import { isIsoDate } from '../feed/iso-date.js';
import type { Graph } from '../graph/graph-node.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import { greater, lesser } from './pairwise-extremes.js';
import { timeColumns } from './time-columns.js';

const TEXT_TYPE = /^(text|varchar|character varying|char|character|clob|)(\s*\(.*\))?$/i;

/**
 * The partitions the fast mode would call stale (raw rows for them landed
 * after their last write, or never written but with rows landed by the
 * as-of), found with one index seek per partition instead of a scan of the
 * rows landed since the oldest write: possible when every raw input keeps
 * its event time as a day text (YYYY-MM-DD, the partition itself) in a text
 * column that leads an index, and its loaded-at as text (an index on both
 * makes each seek a range). Undefined otherwise: the caller asks the fast
 * mode. The same answer as fastStale's partitions (stale-candidates property
 * test), at a cost that grows with the partitions, not the rows.
 */
export function seekedLatePartitions(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, asOf: string): string[] | undefined {
  const late = new Set<string>();
  for (const source of timeSourcesOf(manifest, graph, node.uniqueId)) {
    if (db.relationKind(source.alias, source.schema) === null) continue;
    const { eventTime, loadedAt } = timeColumns(source);
    const types = new Map(relationColumns(db, source.alias, { schema: source.schema }).map((c) => [c.name.toLowerCase(), c.type.trim()]));
    const textual = (c: string) => TEXT_TYPE.test(types.get(c.toLowerCase()) ?? 'x');
    if (!textual(eventTime) || !textual(loadedAt) || !columnLeadsIndex(db, source.alias, eventTime, source.schema)) return undefined;
    const t = qualifiedName(source.schema, source.alias);
    const e = quoteIdentifier(eventTime);
    const l = quoteIdentifier(loadedAt);
    if (Number(db.value(`select count(*) from (select 1 from ${t} where ${e} is null limit 1) as any_null`)) > 0) return undefined;
    // Every distinct event value, one seek each (walked once: the query below takes them as a list).
    const values = db.values(`with recursive values_ (v) as (
        select (select min(${e}) from ${t})
        union all
        select (select min(${e}) from ${t} where ${e} > values_.v) from values_ where values_.v is not null
      ) select v from values_ where v is not null`) as unknown[];
    if (!values.every((v) => typeof v === 'string' && isIsoDate(v))) return undefined;
    const found = db.prepare(`
      with last_write as (
        select p.partition, p.as_of
        from _mini_dbt_partitions p
        join (select partition, max(node_run_id) as id from _mini_dbt_partitions where model = @model group by partition) lw
          on lw.partition = p.partition and lw.id = p.node_run_id
        where p.model = @model
      )
      select parts.v as partition
      from (select listed.value as v from ${dialect.jsonTexts('@parts', 'listed')}) as parts
      left join last_write lw on lw.partition = parts.v
      where (lw.as_of is not null and exists (
               select 1 from ${t} as r where r.${e} = parts.v
                 and r.${l} > ${lesser('lw.as_of', 'cast(@asOf as text)')} and r.${l} <= ${greater('lw.as_of', 'cast(@asOf as text)')}))
         or ((lw.partition is null or lw.as_of is null) and exists (
               select 1 from ${t} as r where r.${e} = parts.v and r.${l} <= @asOf))`).all({ model: node.name, asOf, parts: JSON.stringify(values) }) as { partition: string }[];
    for (const row of found) late.add(String(row.partition));
  }
  return [...late].sort();
}

import type { Manifest, SeedNode, SourceNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier, qualifiedName } from '../engine/quote-identifier.js';
import { relationKind, type RelationKind } from '../engine/relation-kind.js';
import { ancestors } from '../graph/walk-graph.js';
import { nodeReadsVar } from '../compile/node-reads-var.js';
import type { Graph } from '../graph/graph-node.js';

/** What a raw input is in the warehouse (a run asks twice: once read, then remembered). */
export type SourceKind = (source: SeedNode | SourceNode) => RelationKind | null;

/** A SourceKind that asks the warehouse once per relation. */
export function rememberedSourceKind(db: Warehouse): SourceKind {
  const known = new Map<string, RelationKind | null>();
  return (source) => {
    const key = `${source.schema}\u0000${source.alias}`;
    if (!known.has(key)) known.set(key, relationKind(db, source.alias, source.schema));
    return known.get(key)!;
  };
}

/** Seeds and sources upstream of a node that declare a loaded_at column. */
export function timeSourcesOf(manifest: Manifest, graph: Graph, uniqueId: string): (SeedNode | SourceNode)[] {
  return [...ancestors(graph, uniqueId)]
    .map((id) => manifest.nodes.get(id))
    .filter((n): n is SeedNode | SourceNode => n !== undefined && n.resourceType !== 'model' && n.settings.loadedAt !== undefined);
}

/**
 * The as-of a run of this node sees: the `as_of` var when given (and
 * something the node is built from reads it), else everything landed so far
 * (the latest loaded_at upstream): a model that never reads var('as_of')
 * reads every row whatever the var says, and its ledger rows must say so.
 * Null when the model has no time-declared source.
 */
export function effectiveAsOf(db: Warehouse, manifest: Manifest, graph: Graph, uniqueId: string, kindOf: SourceKind = (s) => relationKind(db, s.alias, s.schema)): string | null {
  const declared = manifest.vars.as_of;
  if (declared !== undefined && declared !== null && declared !== '' && nodeReadsVar(manifest, graph, uniqueId, 'as_of')) {
    return endOfNight(db, manifest, graph, uniqueId, String(declared), kindOf);
  }
  let latest: string | null = null;
  for (const source of timeSourcesOf(manifest, graph, uniqueId)) {
    if (kindOf(source) === null) continue;
    const value = db.value(`select max(${quoteIdentifier(source.settings.loadedAt!)}) from ${qualifiedName(source.schema, source.alias)}`);
    if (value !== null && value !== undefined && (latest === null || String(value) > latest)) latest = String(value);
  }
  return latest;
}

/** A loaded_at value's text after its date: the separator, the time of day, fractions, a zone. */
const TIME_PART = /^([T ])(\d{2}:\d{2}(?::\d{2})?)(\.\d+)?(.*)$/;

/**
 * A date as_of is the whole night: rows landed any time that day are in.
 * Where the raw rows' loaded_at carries a time of day, the toolkit compares
 * those texts with the as-of (`loaded_at <= as_of`, `loaded_at > the as-of
 * of a partition's last write`), and a bare date sorts before every time of
 * its own day: the as-of is then the last instant of that day written as
 * the column writes its values (`2026-03-05 23:59:59`, `2026-03-05T23:59:59Z`).
 * A date and time, or loaded_at values that are dates, keep the as_of given.
 */
function endOfNight(db: Warehouse, manifest: Manifest, graph: Graph, uniqueId: string, night: string, kindOf: SourceKind): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(night)) return night;
  for (const source of timeSourcesOf(manifest, graph, uniqueId)) {
    if (kindOf(source) === null) continue;
    const value: unknown = db.value(`select ${quoteIdentifier(source.settings.loadedAt!)} from ${qualifiedName(source.schema, source.alias)} where ${quoteIdentifier(source.settings.loadedAt!)} is not null limit 1`);
    const m = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? TIME_PART.exec(value.slice(10)) : null;
    if (!m) continue;
    return `${night}${m[1]}${'23:59:59'.slice(0, m[2]!.length)}${m[3] ? `.${'9'.repeat(m[3].length - 1)}` : ''}${m[4]}`;
  }
  return night;
}

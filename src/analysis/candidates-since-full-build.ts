import type { Manifest, ModelNode } from '../compile/manifest.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { hasTextAffinity } from '../engine/text-affinity.js';
import { ProjectError } from '../errors/project-error.js';
import { isIsoDate } from '../feed/iso-date.js';
import type { Graph } from '../graph/graph-node.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import { timeColumns } from './time-columns.js';

/** A partition's last write since the full build: the night it saw and the definition it ran under. */
interface Write {
  readonly asOf: string;
  readonly hash: string | null;
}

/**
 * The partitions `stale --candidates` cannot vouch for, found from what
 * happened since the model's last successful full build, at a cost that
 * follows that (the writes since, the raw rows landed since), not the
 * history: the same stale answer as candidatePlan's walk over every day.
 *
 * A full build replaces the whole table from the raw rows landed by its
 * as-of A: every day, with rows or without, is written then, the days it
 * produced no row for included (they are absent, and it recorded none). So
 * a day's last write is its last one recorded since, else the full build's;
 * a day not written since is a candidate only when a raw row for it landed
 * between A and the as-of asked about (either way round: the table may be
 * ahead of it), and a day written since only when one landed between that
 * write's as-of and the as-of asked about, or when that write ran under
 * another definition. Every such row landed between the smallest and the
 * largest of those as-ofs: one range of the loaded-at index per raw input.
 *
 * Undefined (the caller walks every day instead) when this cannot stand for
 * that walk: no successful full build, or one under another definition or
 * without an as-of; a successful run since that is not an incremental run
 * or a backfill, or has no as-of; a partition recorded since (or, for a
 * partition with no value, ever: recorded as 'null') that is not a day; a
 * raw input without event_time or loaded_at, or a row landed in the range
 * whose event time is not a day (YYYY-MM-DD text).
 */
export function candidatesSinceFullBuild(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, asOf: string, definition: string): string[] | undefined {
  const full = db.prepare(`
    select id, as_of, definition_hash from _mini_dbt_node_runs
    where model = ? and mode = 'full' and status = 'success' order by id desc limit 1`).get(node.name) as { id: number; as_of: string | null; definition_hash: string | null } | undefined;
  if (full === undefined || full.as_of === null || full.definition_hash !== definition) return undefined;
  const runs = db.prepare('select mode, status, as_of from _mini_dbt_node_runs where model = ? and id > ?').all(node.name, full.id) as { mode: string; status: string; as_of: string | null }[];
  if (runs.some((r) => r.status === 'success' && ((r.mode !== 'incremental' && r.mode !== 'backfill') || r.as_of === null))) return undefined;
  // A row with no partition is recorded as 'null', which sorts after every day: only the full comparison can say then.
  const highest = db.value('select max(partition) from _mini_dbt_partitions where model = ?', node.name);
  if (highest !== null && highest !== undefined && !isIsoDate(String(highest))) return undefined;

  const since = new Map<string, Write>();
  const written = db.prepare(`
    select p.partition as partition, p.as_of as as_of, n.definition_hash as definition_hash
    from _mini_dbt_partitions p join _mini_dbt_node_runs n on n.id = p.node_run_id
    where p.model = ? and p.node_run_id > ? order by p.node_run_id`).all(node.name, full.id) as { partition: unknown; as_of: string | null; definition_hash: string | null }[];
  for (const w of written) {
    const partition = String(w.partition);
    if (w.as_of === null || !isIsoDate(partition)) return undefined;
    since.set(partition, { asOf: w.as_of, hash: w.definition_hash });
  }
  const candidates = new Set([...since].filter(([, w]) => w.hash !== definition).map(([p]) => p));

  const fullWrite: Write = { asOf: full.as_of, hash: full.definition_hash };
  const asOfs = [full.as_of, asOf, ...[...since.values()].map((w) => w.asOf)];
  const after = asOfs.reduce((a, b) => (b < a ? b : a));
  const upTo = asOfs.reduce((a, b) => (b > a ? b : a));
  for (const source of timeSourcesOf(manifest, graph, node.uniqueId)) {
    if (db.relationKind(source.alias, source.schema) === null) continue;
    let columns;
    try {
      columns = timeColumns(source);
    } catch (err) {
      if (err instanceof ProjectError) return undefined;
      throw err;
    }
    const e = quoteIdentifier(columns.eventTime);
    // A TEXT column compares as it is, so its loaded-at index serves the range; anything else is compared as text.
    const l = hasTextAffinity(db, source.alias, columns.loadedAt, source.schema) ? quoteIdentifier(columns.loadedAt) : dialect.castText(quoteIdentifier(columns.loadedAt));
    const landed = db.prepare(`
      select ${e} as day, ${dialect.castText(quoteIdentifier(columns.loadedAt))} as loaded
      from ${qualifiedName(source.schema, source.alias)} where ${l} > ? and ${l} <= ? group by 1, 2`).all(after, upTo) as { day: unknown; loaded: string }[];
    for (const { day, loaded } of landed) {
      // A day as the partition holds it (the fast mode's day of a time is not followed here).
      if (typeof day !== 'string' || !isIsoDate(day)) return undefined;
      const last = since.get(day) ?? fullWrite;
      const [low, high] = last.asOf < asOf ? [last.asOf, asOf] : [asOf, last.asOf];
      if (loaded > low && loaded <= high) candidates.add(day);
    }
  }
  return [...candidates].sort();
}

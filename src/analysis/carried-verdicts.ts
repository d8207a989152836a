import type { Manifest, ModelNode, SeedNode, SourceNode } from '../compile/manifest.js';
import type { PreparedStatement } from '../engine/connection.js';
import { isIsoDate } from '../feed/iso-date.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { hasTextAffinity } from '../engine/text-affinity.js';
import type { Graph } from '../graph/graph-node.js';
import { ancestors } from '../graph/walk-graph.js';
import { definitionHash } from '../plan/definition-hash.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import { candidatePlan, compareCandidates, livePartitions, rebuildable } from './candidate-stale.js';

/** What the last check left: every candidate's verdict, as of a night. */
interface Verdicts {
  readonly asOf: string;
  /** The model's last node run when checked: runs after it wrote what is in doubt. */
  readonly runId: number;
  readonly hash: string;
  readonly candidates: ReadonlySet<string>;
  readonly stale: ReadonlySet<string>;
  readonly inTable: ReadonlySet<string>;
  /** The as-of of each partition's last write. */
  readonly lastWrites: ReadonlyMap<string, string>;
}

/** Strategies that change only the partitions a run records in the ledger when the unique key is the partition itself. */
const KEYED_BY_PARTITION = new Set(['delete+insert', 'merge']);

/** Materializations whose rows are recomputed from their inputs on every read or run. */
const STATELESS = new Set<string>(['view', 'table', 'ephemeral']);

/**
 * candidateStale night after night, within one replay: a candidate's verdict
 * (stale or not) is carried to the next night unless something it depends
 * on changed. Under candidateStale's own trust (a partition's rebuilt rows
 * come from the raw rows of its day landed by the as-of; only the tool
 * writes the live table), a partition's rebuild changes only when a raw row
 * for its day lands, its live rows only when a run writes it (the ledger
 * records it), and whether it is a candidate only then or when the
 * definition changes. So a night rebuilds only the candidates among the
 * partitions with a landing or a write since the last check; the others
 * keep their verdict. The same stale list as candidateStale each night
 * (test/integration/carried-verdicts.test.ts). The first check, and every check after
 * something the carry cannot follow (an as-of that goes back, a new
 * definition, a run that is not incremental, a write as of another night
 * than the check's), is candidateStale's whole. Undefined when
 * candidateStale is (the caller does the full comparison).
 */
export class CarriedVerdicts {
  /** How many checks were whole (candidateStale's) and how many carried the night before's verdicts. */
  readonly checks = { whole: 0, carried: 0 };
  private last: Verdicts | undefined;
  private readonly hashes = new WeakMap<Manifest['nodes'], Map<string, string | null>>();
  private readonly carriable: boolean;
  private readonly landingQueries = new Map<string, PreparedStatement<unknown>>();

  constructor(private readonly db: Warehouse, private readonly graph: Graph, private readonly node: ModelNode) {
    const s = node.settings;
    const strategy = s.strategy ?? '';
    const keyed = strategy === 'insert_overwrite' || (KEYED_BY_PARTITION.has(strategy) && s.partitionColumn !== undefined && s.uniqueKeyColumns.length === 1 && s.uniqueKeyColumns[0] === s.partitionColumn);
    this.carriable = keyed && s.partitionColumn !== undefined;
  }

  /** The stale partitions as of `asOf` (sorted), or undefined: only the full comparison can say. */
  stale(manifest: Manifest, asOf: string): string[] | undefined {
    const hash = this.definitionHash(manifest);
    const last = this.last;
    this.last = undefined;
    if (last === undefined || hash === null || hash !== last.hash || asOf < last.asOf) return this.whole(manifest, asOf, hash);
    const next = this.carried(manifest, asOf, last, hash);
    return next === 'whole' ? this.whole(manifest, asOf, hash) : next;
  }

  /** A night checked in full (candidateStale), its verdicts kept for the next. */
  private whole(manifest: Manifest, asOf: string, hash: string | null): string[] | undefined {
    const { db, node } = this;
    this.checks.whole += 1;
    const runId = this.lastRunId();
    const plan = candidatePlan(db, manifest, this.graph, node, asOf);
    if (plan === undefined) return undefined;
    const result = compareCandidates(db, manifest, node, plan, { detailPartitions: 0, totals: false });
    if (result === undefined) return undefined;
    if (this.carriable && hash !== null && this.upstreamIsStateless(manifest) && this.landingsReadable(manifest)) {
      const inTable = livePartitions(db, node);
      const lastWrites = this.lastWrites();
      if (inTable !== undefined && lastWrites !== undefined) {
        this.last = { asOf, runId, hash, candidates: new Set(plan.candidates), stale: new Set(result.stale), inTable: new Set(inTable), lastWrites };
      }
    }
    return result.stale;
  }

  /** A night from the last one's verdicts: only what landed or was written since is looked at again. */
  private carried(manifest: Manifest, asOf: string, last: Verdicts, hash: string): string[] | undefined | 'whole' {
    const { db, node } = this;
    const runs = db.prepare('select id, mode, status, as_of from _mini_dbt_node_runs where model = ? and id > ? order by id').all(node.name, last.runId) as { id: number; mode: string; status: string; as_of: string | null }[];
    const succeeded = runs.filter((r) => r.status === 'success');
    // A full rebuild may drop partitions it does not record; a write as of another night is not the window the landings below cover.
    if (succeeded.some((r) => (r.mode !== 'incremental' && r.mode !== 'backfill') || r.as_of === null || r.as_of < last.asOf || r.as_of > asOf)) return 'whole';
    const runId = runs.length === 0 ? last.runId : Number(runs[runs.length - 1]!.id);
    // The latest write of each partition written since (later rows win).
    const writes = new Map<string, { as_of: string | null; definition_hash: string | null }>();
    if (succeeded.length > 0) {
      const rows = db.prepare(`
        select p.partition as partition, p.as_of as as_of, n.definition_hash as definition_hash
        from _mini_dbt_partitions p join _mini_dbt_node_runs n on n.id = p.node_run_id
        where p.model = ? and p.node_run_id > ? order by p.node_run_id`).all(node.name, last.runId) as { partition: unknown; as_of: string | null; definition_hash: string | null }[];
      for (const r of rows) writes.set(String(r.partition), r);
    }
    // The latest landing of each day since the last check.
    const landed = this.landings(manifest, last.asOf, asOf);
    if (landed === undefined) return 'whole';
    const changed = new Set([...landed.keys(), ...writes.keys()]);
    if (changed.size === 0) {
      this.checks.carried += 1;
      this.last = { ...last, asOf, runId };
      return [...last.stale].sort();
    }
    const candidates = new Set(last.candidates);
    const lastWrites = new Map(last.lastWrites);
    for (const p of changed) {
      const w = writes.get(p);
      if (w === undefined) {
        // Not written since, and last written as of a night after the last check (the table was ahead of it):
        // whether a row landed between tonight and that night is not among the landings read here.
        const before = lastWrites.get(p);
        if (before !== undefined && before > last.asOf) return 'whole';
        // Otherwise a landing since the last check is after its last write: late.
        candidates.add(p);
        continue;
      }
      if (w.as_of === null) return 'whole';
      lastWrites.set(p, w.as_of);
      // Written since, as of a night from the last check's to tonight's: late when a row for it landed after that night.
      if (w.definition_hash !== hash || (landed.get(p) ?? '') > w.as_of) candidates.add(p);
      else candidates.delete(p);
    }
    // The partitions in the table: the last check's and those written since. (A write that emptied a
    // partition leaves it counted: this only sizes the check against the table, the answer is the rebuild's.)
    let inTable = last.inTable;
    if (writes.size > 0) {
      // A row with no partition is recorded as 'null': candidatePlan's whole check sends that to the full comparison.
      if ([...writes.keys()].some((p) => !isIsoDate(p))) return 'whole';
      inTable = new Set([...last.inTable, ...writes.keys()]);
    }
    const all = new Set([...inTable, ...candidates]);
    const sorted = [...candidates].sort();
    if (!rebuildable(sorted, all.size)) return undefined;
    this.checks.carried += 1;
    const recheck = sorted.filter((p) => changed.has(p));
    const result = compareCandidates(db, manifest, node, { candidates: recheck, partitionsChecked: all.size, existing: db.relationKind(node.alias, node.schema) }, { detailPartitions: 0, totals: false });
    if (result === undefined) return undefined;
    const stale = new Set([...last.stale].filter((p) => !changed.has(p)));
    for (const p of result.stale) stale.add(p);
    this.last = { asOf, runId, hash, candidates, stale, inTable, lastWrites };
    return [...stale].sort();
  }

  /** For each day with raw rows landed in (after, upTo], the latest loaded_at (text); undefined when a source cannot say. */
  private landings(manifest: Manifest, after: string, upTo: string): Map<string, string> | undefined {
    const { db } = this;
    const out = new Map<string, string>();
    for (const source of timeSourcesOf(manifest, this.graph, this.node.uniqueId)) {
      if (db.relationKind(source.alias, source.schema) === null) continue;
      const eventTime = source.settings.eventTime;
      const loadedAt = source.settings.loadedAt!;
      if (eventTime === undefined) return undefined;
      const rows = this.landingsQuery(source, eventTime, loadedAt).all(after, upTo) as { day: unknown; loaded: string }[];
      for (const r of rows) {
        if (r.day === null) return undefined;
        const day = String(r.day);
        const seen = out.get(day);
        if (seen === undefined || r.loaded > seen) out.set(day, r.loaded);
      }
    }
    return out;
  }

  /** The landings query of a raw input, prepared once per replay (its columns' types do not change within one). */
  private landingsQuery(source: SeedNode | SourceNode, eventTime: string, loadedAt: string): PreparedStatement<unknown> {
    const key = `${source.schema}\0${source.alias}\0${eventTime}\0${loadedAt}`;
    let statement = this.landingQueries.get(key);
    if (statement === undefined) {
      const { db } = this;
      // A TEXT column compares as it is, so its loaded-at index serves the range; anything else is compared as text.
      const l = hasTextAffinity(db, source.alias, loadedAt, source.schema) ? quoteIdentifier(loadedAt) : dialect.castText(quoteIdentifier(loadedAt));
      statement = db.prepare(`
        select ${dialect.dayOrText(quoteIdentifier(eventTime))} as day, max(${dialect.castText(quoteIdentifier(loadedAt))}) as loaded
        from ${qualifiedName(source.schema, source.alias)} where ${l} > ? and ${l} <= ? group by 1`);
      this.landingQueries.set(key, statement);
    }
    return statement;
  }

  /** Every raw input declares the day of its rows (event_time): a landing then names the partition it can change. */
  private landingsReadable(manifest: Manifest): boolean {
    return timeSourcesOf(manifest, this.graph, this.node.uniqueId).every((s) => s.settings.eventTime !== undefined);
  }

  /** Nothing upstream keeps rows between runs (no incremental model, no snapshot): its rows for a day follow the raw rows of that day. */
  private upstreamIsStateless(manifest: Manifest): boolean {
    return [...ancestors(this.graph, this.node.uniqueId)].every((id) => {
      const n = manifest.nodes.get(id);
      return n === undefined || n.resourceType !== 'model' || STATELESS.has(n.settings.materialized);
    });
  }

  /** The as-of of each partition's last write (undefined when one has none: its lateness is every row landed). */
  private lastWrites(): Map<string, string> | undefined {
    const rows = this.db.prepare(`
      select p.partition as partition, p.as_of as as_of
      from _mini_dbt_partitions p
      join (select partition, max(node_run_id) as id from _mini_dbt_partitions where model = ? group by partition) l
        on l.partition = p.partition and l.id = p.node_run_id
      where p.model = ?`).all(this.node.name, this.node.name) as { partition: unknown; as_of: string | null }[];
    if (rows.some((r) => r.as_of === null)) return undefined;
    return new Map(rows.map((r) => [String(r.partition), String(r.as_of)]));
  }

  private lastRunId(): number {
    return Number(this.db.value('select coalesce(max(id), 0) from _mini_dbt_node_runs where model = ?', this.node.name) ?? 0);
  }

  /**
   * The definition hash, once per set of nodes and vars: a manifest under
   * other vars keeps its nodes when no capture changed (withVars), and the
   * night's as_of, start and end are not part of the hash.
   */
  private definitionHash(manifest: Manifest): string | null {
    let byVars = this.hashes.get(manifest.nodes);
    if (!byVars) this.hashes.set(manifest.nodes, (byVars = new Map()));
    const key = JSON.stringify(Object.entries(manifest.vars).filter(([k]) => k !== 'as_of' && k !== 'start' && k !== 'end').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (!byVars.has(key)) byVars.set(key, definitionHash(manifest, this.graph, this.node, this.db));
    return byVars.get(key)!;
  }
}

import { warehouseExists } from '../engine/warehouse-exists.js';
import type { ModelNode, SeedNode, SourceNode } from '../compile/manifest.js';
import { dialect } from '../engine/current-engine.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { daysBetween, isIsoDate } from '../feed/iso-date.js';
import { descendants } from '../graph/walk-graph.js';
import { findModel, findSeedOrSource } from '../analysis/find-node.js';
import { rowIdColumn } from '../execute/row-id-column.js';
import { effectiveAsOf, timeSourcesOf } from '../state/effective-as-of.js';
import { loadSession, type Session, type SessionOptions } from './session.js';

export interface ExplainOrderOptions extends SessionOptions {
  /** The order's id, as typed (compared as a number when the id column is numeric). */
  readonly orderId: string;
  /** The incremental model to follow it into (needed when several read the raw input). */
  readonly model?: string;
  /** The seed or source holding the versions (needed when the model reads several). */
  readonly source?: string;
  /** The id column (default: the first column named id or ending in _id). */
  readonly idColumn?: string;
  readonly session?: Session;
}

/** One run of the model, from the ledger. */
export interface OrderRun {
  readonly as_of: string | null;
  readonly mode: string;
  readonly window_start: string | null;
  readonly window_end: string | null;
  readonly command_line: string;
  /** Whether this run rewrote the order's partition. */
  readonly covered: boolean;
  /** The version (1-based) that had landed by its as-of; null when none had, or its as-of is unknown. */
  readonly version_seen: number | null;
}

export interface OrderVersion {
  /** 1-based, in landing order. */
  readonly version: number;
  readonly loaded_at: string;
  readonly event_time: string;
  /** Whole days from its event time to when it landed; null when either is not a date. */
  readonly days_late: number | null;
  /** The other columns of the raw row. */
  readonly values: Record<string, unknown>;
  /** The first run that rewrote the partition with this version as the latest landed. */
  readonly applied_by: OrderRun | null;
  /** The first run whose as-of reached this version (the night it landed), covering the partition or not. */
  readonly first_run_after: OrderRun | null;
}

export interface ExplainOrderResult {
  readonly order_id: unknown;
  readonly source: string;
  readonly id_column: string;
  readonly event_time_column: string;
  readonly loaded_at_column: string;
  readonly model: string;
  /** The model's partition the order belongs to (its event time's day). */
  readonly partition: string;
  readonly versions: OrderVersion[];
  /** Every successful run of the model recorded in the ledger, oldest first. */
  readonly runs: OrderRun[];
  /** The version the table counts now: what the last run that rewrote the partition had seen. */
  readonly table_counts: { readonly version: number | null; readonly run: OrderRun | null };
  /** The version a full rebuild counts: the latest landed by the as-of (the as_of var, else everything landed). */
  readonly full_rebuild_counts: { readonly version: number | null; readonly as_of: string | null };
  /** The table counts another version than a full rebuild would: the partition is stale. */
  readonly stale: boolean;
}

/**
 * Follow one order through every night: when each version landed, which
 * recorded runs of the incremental model rewrote its day, which version the
 * table counts now and which a full rebuild counts.
 */
export function explainOrder(options: ExplainOrderOptions): ExplainOrderResult {
  const session = options.session ?? loadSession(options);
  const { manifest, graph } = session;
  const { source, model } = resolveNodes(session, options);
  const eventTime = source.settings.eventTime!;
  const loadedAt = source.settings.loadedAt!;
  if (!warehouseExists(session.project.databasePath)) throw notLoaded(source);
  const db = openProjectWarehouse(session.project, { readonly: true });
  try {
    if (relationKind(db, source.alias, source.schema) === null) throw notLoaded(source);
    const columns = db.relationColumns(source.alias, { schema: source.schema });
    const idColumn = options.idColumn ?? rowIdColumn(db, source.alias, source.schema, [eventTime, loadedAt]);
    if (idColumn === null) {
      throw new ProjectError(`${source.name} has no id column (one named id or ending in _id), so explain-order cannot tell which rows are versions of one order`, {
        hint: `name it: --id-column <column> (columns: ${columns.map((c) => c.name).join(', ')})`,
      });
    }
    const column = columns.find((c) => c.name.toLowerCase() === idColumn.toLowerCase());
    if (column === undefined) {
      throw new ProjectError(`${source.name} has no column '${idColumn}'.${didYouMeanSuffix(idColumn, columns.map((c) => c.name))}`, { hint: `its columns: ${columns.map((c) => c.name).join(', ')}` });
    }
    const numeric = dialect.typeAffinity(column.type) !== 'TEXT' && /^-?\d+(\.\d+)?$/.test(options.orderId);
    const id: string | number = numeric ? Number(options.orderId) : options.orderId;
    const table = qualifiedName(source.schema, source.alias);
    const idq = quoteIdentifier(column.name);
    const rows = db.prepare(`select *, ${dialect.dayOrText(quoteIdentifier(eventTime))} as __partition, ${dialect.castText(quoteIdentifier(loadedAt))} as __loaded
      from ${table} where ${idq} = ? order by __loaded`).all(id) as Record<string, unknown>[];
    if (rows.length === 0) throw unknownOrder(db, table, idq, column.name, source.name, id, options.orderId);
    const partition = String(rows[rows.length - 1]!.__partition);
    const loaded = rows.map((r) => String(r.__loaded));
    const seen = (asOf: string | null): number | null => {
      if (asOf === null) return null;
      const n = loaded.filter((l) => l <= asOf).length;
      return n === 0 ? null : n;
    };
    const runs = modelRuns(db, model.name, partition).map((r) => ({ ...r, version_seen: seen(r.as_of) }));
    const skip = new Set([column.name, eventTime, loadedAt, '__partition', '__loaded'].map((c) => c.toLowerCase()));
    const versions: OrderVersion[] = rows.map((r, i) => {
      const at = String(r.__loaded);
      const event = String(r[eventTime] ?? '');
      const values = Object.fromEntries(Object.entries(r).filter(([k]) => !skip.has(k.toLowerCase())));
      return {
        version: i + 1,
        loaded_at: at,
        event_time: event,
        days_late: isIsoDate(at.slice(0, 10)) && isIsoDate(event.slice(0, 10)) ? daysBetween(event.slice(0, 10), at.slice(0, 10)) : null,
        values,
        applied_by: runs.find((run) => run.covered && run.version_seen === i + 1) ?? null,
        first_run_after: runs.find((run) => run.as_of !== null && run.as_of >= at) ?? null,
      };
    });
    const lastCovering = [...runs].reverse().find((r) => r.covered) ?? null;
    const asOf = effectiveAsOf(db, manifest, graph, model.uniqueId);
    const rebuild = seen(asOf);
    const tableVersion = lastCovering?.version_seen ?? null;
    return {
      order_id: id, source: source.name, id_column: column.name, event_time_column: eventTime, loaded_at_column: loadedAt, model: model.name, partition,
      versions, runs,
      table_counts: { version: tableVersion, run: lastCovering },
      full_rebuild_counts: { version: rebuild, as_of: asOf },
      stale: lastCovering !== null && tableVersion !== rebuild,
    };
  } finally {
    db.close();
  }
}

/** The raw input and the incremental model: named, or the only candidates. */
function resolveNodes(session: Session, options: ExplainOrderOptions): { source: SeedNode | SourceNode; model: ModelNode } {
  const { manifest, graph } = session;
  const timed = (n: SeedNode | SourceNode) => n.settings.eventTime !== undefined && n.settings.loadedAt !== undefined;
  const followable = (m: ModelNode) => m.settings.materialized === 'incremental' && m.settings.partitionColumn !== undefined;
  const model = options.model === undefined ? undefined : findModel(manifest, options.model);
  if (model !== undefined && !followable(model)) {
    throw new ProjectError(`model '${model.name}' is not an incremental model with partition_by, so no run leaves an order's day behind`, { hint: `name one: ${incrementalModels(session).join(', ') || '(the project has none)'}` });
  }
  let source: SeedNode | SourceNode;
  if (options.source !== undefined) {
    source = findSeedOrSource(manifest, options.source);
    if (!timed(source)) throw new ProjectError(`${source.resourceType} '${source.name}' does not declare both event_time and loaded_at, so explain-order cannot tell when its rows landed`, { hint: 'declare them in its yml: config: {event_time: order_date, loaded_at: load_date}' });
  } else {
    const candidates = model !== undefined
      ? timeSourcesOf(manifest, graph, model.uniqueId).filter(timed)
      : [...manifest.seeds.values(), ...manifest.sources.values()].filter(timed);
    if (candidates.length === 0) {
      throw new ProjectError(`no seed or source ${model ? `upstream of '${model.name}' ` : ''}declares both event_time and loaded_at, so explain-order cannot tell when an order's rows landed`, { hint: 'declare them in the raw input\'s yml: config: {event_time: order_date, loaded_at: load_date}' });
    }
    if (candidates.length > 1) {
      throw new ProjectError(`${candidates.length} raw inputs declare event_time and loaded_at (${candidates.map((c) => c.name).sort().join(', ')}): which one holds the order?`, { hint: `name it: --source ${candidates[0]!.name}` });
    }
    source = candidates[0]!;
  }
  if (model !== undefined) {
    if (!timeSourcesOf(manifest, graph, model.uniqueId).some((s) => s.uniqueId === source.uniqueId)) {
      throw new ProjectError(`model '${model.name}' does not read ${source.name}`, { hint: `models reading it: ${readers(session, source).join(', ') || '(none)'}` });
    }
    return { source, model };
  }
  const models = readers(session, source);
  if (models.length === 0) throw new ProjectError(`no incremental model with partition_by reads ${source.name}, so no run leaves an order's day behind`, { hint: 'explain-order follows an order into an incremental model partitioned by day' });
  if (models.length > 1) throw new ProjectError(`${models.length} incremental models read ${source.name} (${models.join(', ')}): which one should the order be followed into?`, { hint: `name it: --model ${models[0]}` });
  return { source, model: manifest.models.get(models[0]!)! };
}

function incrementalModels(session: Session): string[] {
  return [...session.manifest.models.values()].filter((m) => m.settings.materialized === 'incremental' && m.settings.partitionColumn !== undefined).map((m) => m.name).sort();
}

function readers(session: Session, source: SeedNode | SourceNode): string[] {
  const below = descendants(session.graph, source.uniqueId);
  return incrementalModels(session).filter((name) => below.has(session.manifest.models.get(name)!.uniqueId));
}

function modelRuns(db: Warehouse, model: string, partition: string): Omit<OrderRun, 'version_seen'>[] {
  if (!db.hasTable('_mini_dbt_node_runs')) return [];
  const rows = db.prepare(`
    select n.as_of, n.mode, n.window_start, n.window_end, coalesce(r.command_line, '') as command_line,
           exists (select 1 from _mini_dbt_partitions p where p.node_run_id = n.id and p.partition = @partition) as covered
    from _mini_dbt_node_runs n left join _mini_dbt_runs r on r.invocation_id = n.invocation_id
    where n.model = @model and n.status = 'success'
    order by n.id`).all({ model, partition }) as (Omit<OrderRun, 'version_seen' | 'covered'> & { covered: number })[];
  return rows.map((r) => ({ ...r, as_of: r.as_of === null ? null : String(r.as_of), covered: Number(r.covered) === 1 }));
}

function notLoaded(source: SeedNode | SourceNode): ProjectError {
  return new ProjectError(`${source.name} is not in the warehouse yet, so there is no order to follow`, { hint: source.resourceType === 'seed' ? 'load it first: mini-dbt seed' : 'load the source table first' });
}

/** The id is not there: name the ids on either side of it and the range. */
function unknownOrder(db: Warehouse, table: string, idq: string, idName: string, source: string, id: string | number, typed: string): ProjectError {
  const below = db.value(`select max(${idq}) from ${table} where ${idq} < ?`, id);
  const above = db.value(`select min(${idq}) from ${table} where ${idq} > ?`, id);
  const low = db.value(`select min(${idq}) from ${table}`);
  const high = db.value(`select max(${idq}) from ${table}`);
  if (low === null || low === undefined) return new ProjectError(`${source} has no ${idName} ${typed}: it has no rows`, { hint: 'load it first: mini-dbt seed' });
  // A word looked up among numbers has no neighbours worth naming: give the range.
  const near = typeof id === 'string' && typeof low === 'number' ? [] : [below, above].filter((v) => v !== null && v !== undefined).map(String);
  if (near.length === 0) return new ProjectError(`${source} has no ${idName} ${typed}: ${idName} is a number from ${String(low)} to ${String(high)}`, { hint: `e.g. mini-dbt explain-order ${String(low)}` });
  const closest = near.length === 2 ? `the closest are ${near[0]} and ${near[1]}` : `the closest is ${near[0]}`;
  return new ProjectError(`${source} has no ${idName} ${typed}: ${closest} (${idName} runs from ${String(low)} to ${String(high)})`, {
    hint: `mini-dbt explain-order ${near[0]}`,
  });
}

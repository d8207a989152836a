import { randomUUID } from 'node:crypto';
import { now } from '../clock.js';
import { ProjectError } from '../errors/project-error.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { ensureSchema } from '../engine/target-schemas.js';
import { relationName } from '../execute/describe-node.js';
import { selectNodes } from '../graph/select-nodes.js';
import type { ResourceType } from '../graph/graph-node.js';
import { topologicalOrder } from '../graph/topological-order.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';
import { writeRunArtifacts } from '../state/write-artifacts.js';
import { attachDeferredSchemas, deferralOf } from './defer-state.js';
import { namedSelectionBase } from './named-selection.js';
import { selectionState } from './selection-state.js';
import { loadSession, type Session, type SessionOptions } from './session.js';

export interface CloneOptions extends SessionOptions {
  readonly select?: readonly string[];
  readonly exclude?: readonly string[];
  /** Replace relations the target has already (dbt's clone skips them, "No-op", without it). */
  readonly fullRefresh?: boolean;
  /** dbt's --resource-type / --exclude-resource-type: only these of model, seed, snapshot. */
  readonly resourceTypes?: readonly ResourceType[];
  readonly onEvent?: (event: RunEvent) => void;
  readonly writeArtifacts?: boolean;
  /** An already loaded session (the CLI's, which printed its stats). */
  readonly session?: Session;
}

export interface CloneResult {
  readonly results: readonly NodeResult[];
  readonly elapsedSeconds: number;
  readonly exitCode: number;
  readonly session: Session;
}

type Clonable = { readonly uniqueId: string; readonly name: string; readonly alias: string; readonly schema: string; readonly resourceType: 'model' | 'seed' | 'snapshot' };

/**
 * dbt's clone (1.6+): for each selected model, seed and snapshot, a relation
 * in the target that reads the state's (`--state`, or `--defer-state`;
 * required, whether or not --defer is given). dbt-postgres cannot clone a
 * table without copying, so its clone is a view `select * from <state
 * relation>`, and so is mini-dbt's; on SQLite, whose views cannot read
 * another file, a state relation in another file is copied into a table
 * instead (a copy, not a zero-copy clone: said in the result message). A
 * relation the target has already is left alone ("No-op") unless
 * --full-refresh; so is a node the state did not build (or an ephemeral).
 */
export function clone(options: CloneOptions): CloneResult {
  const t0 = performance.now();
  const session = options.session ?? loadSession(options);
  const { manifest, graph, project } = session;
  if ((options.deferState ?? options.state ?? '').trim() === '') {
    // E210, clone's words in dbt.
    throw new ProjectError('--state or --defer-state are required for deferral, but neither was provided', {
      hint: "give --state <folder>: the target folder of the run whose relations to clone, e.g. a copy of production's target/",
    });
  }
  const state = options.state !== undefined ? { state: selectionState(options.state, manifest, graph) } : {};
  const named = namedSelectionBase(options, project.root, graph, state.state);
  const types = (['model', 'seed', 'snapshot'] as const).filter((t) => options.resourceTypes === undefined || options.resourceTypes.includes(t));
  const selected = selectNodes(graph, { select: options.select, exclude: options.exclude, resourceTypes: [...types], ...state, ...(named.base ? { base: named.base } : {}) });
  const snapshots = new Map([...(manifest.snapshots?.values() ?? [])].map((s) => [s.uniqueId, s]));
  // Ephemeral models have no relation to clone: dbt's clone leaves them out of its results.
  const nodes: Clonable[] = [];
  for (const id of topologicalOrder(graph, selected)) {
    const node = manifest.nodes.get(id) ?? snapshots.get(id);
    if (!node || node.resourceType === 'source' || (node.resourceType === 'model' && node.settings.materialized === 'ephemeral')) continue;
    nodes.push(node as Clonable);
  }
  // The state's relations, its SQLite files attached (never as a schema a cloned node is created in).
  const defer = deferralOf({ ...options, defer: true }, manifest, nodes.map((n) => n.schema))!;
  const emit = options.onEvent ?? (() => undefined);
  const invocationId = randomUUID();
  const runStartedAt = now();
  const sqlite = project.target.postgres === undefined;
  const db = openProjectWarehouse(project, {});
  const results: NodeResult[] = [];
  try {
    attachDeferredSchemas(db, defer);
    for (const schema of new Set(nodes.map((n) => n.schema))) ensureSchema(db, project.target, schema);
    for (const [i, node] of nodes.entries()) {
      const description = `clone ${node.uniqueId}`;
      const event = { index: i + 1, total: nodes.length, description };
      emit({ type: 'start', ...event, uniqueId: node.uniqueId });
      const started = now();
      const t = performance.now();
      let message = 'No-op';
      let error: Error | undefined;
      const from = defer.relations[node.uniqueId];
      try {
        const existing = db.relationKind(node.alias, node.schema);
        // The state's relation is this one (state and target are one environment): never dropped (dbt skips it too).
        const itself = from !== undefined && from.schema === node.schema && from.alias === node.alias;
        if (itself && options.fullRefresh) emit({ type: 'log', level: 'debug', message: `skipping clone for relation ${relationName(node)}: it is the state's relation itself` });
        if (from && !itself && (existing === null || options.fullRefresh)) {
          const target = `${quoteIdentifier(node.schema)}.${quoteIdentifier(node.alias)}`;
          const source = `${quoteIdentifier(from.schema)}.${quoteIdentifier(from.alias)}`;
          // SQLite: a view reads only its own file; a state relation in another file is copied.
          const copy = sqlite && from.schema !== node.schema;
          db.transaction(() => {
            if (existing !== null) db.run(`drop ${existing} if exists ${target}${sqlite ? '' : ' cascade'}`);
            db.run(`create ${copy ? 'table' : 'view'} ${target} as select * from ${source}`);
          });
          message = copy ? 'CREATE TABLE' : 'CREATE VIEW';
        }
      } catch (err) {
        error = err instanceof Error ? err : new Error(String(err));
      }
      const completed = now();
      const result: NodeResult = {
        uniqueId: node.uniqueId, name: node.name, resourceType: node.resourceType, status: error ? 'error' : 'success', message: error ? error.message : message,
        executionTime: (performance.now() - t) / 1000, startedAt: started.toISOString(), completedAt: completed.toISOString(),
        adapterResponse: error || message === 'No-op' ? {} : { _message: message, code: message, rows_affected: -1 },
        relationName: relationName(node), rowsDeleted: 0, rowsInserted: 0, partitions: [], asOf: null, exitCode: error ? 1 : 0,
        ...(error ? { error } : {}),
      };
      results.push(result);
      emit({ type: 'result', ...event, result });
    }
  } finally {
    db.close();
  }
  const elapsedSeconds = (performance.now() - t0) / 1000;
  if (options.writeArtifacts !== false) {
    writeRunArtifacts(project, manifest, graph, { invocationId, command: 'clone', results, hooks: [], elapsedSeconds, runStartedAt, options: { select: options.select, exclude: options.exclude, fullRefresh: options.fullRefresh } });
  }
  return { results, elapsedSeconds, exitCode: results.some((r) => r.status === 'error') ? 1 : 0, session };
}

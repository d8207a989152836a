import { existsSync } from 'node:fs';
import { namedSelectionBase } from './named-selection.js';
import { graphContext } from '../state/graph-context.js';
import { selectionState } from './selection-state.js';
import { withoutEmptyNodes } from './graph-members.js';
import type { ModelNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import { now } from '../clock.js';
import { backfillOfVars, PARSE_CONTEXT, type RunContext } from '../invocation/run-context.js';
import { warehouseFacts } from '../state/warehouse-facts.js';
import { engine } from '../engine/current-engine.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { selectNodes } from '../graph/select-nodes.js';
import { topologicalOrder } from '../graph/topological-order.js';
import type { NodePlan } from '../plan/node-plan.js';
import { planNode } from '../plan/plan-node.js';
import { incrementalWindow, type IncrementalWindow } from '../analysis/incremental-window.js';
import { writeNodeArtifacts, writeRunArtifacts } from '../state/write-artifacts.js';
import { relationName } from '../execute/describe-node.js';
import type { NodeResult } from '../state/node-result.js';
import { randomUUID } from 'node:crypto';
import { loadSession, type SessionOptions } from './session.js';
import { attachDeferredSchemas, deferralOf } from './defer-state.js';
import { warnIgnoredAsOf, warnUnusedVars } from './warn-unused-vars.js';
import { compileSnapshot, writeSnapshotCompiled, type CompiledSnapshot } from './compile-snapshot.js';
import { compileAnalysis, writeAnalysisCompiled, type CompiledAnalysis } from './compile-analysis.js';

export interface CompileOptions extends SessionOptions {
  readonly select?: readonly string[];
  readonly exclude?: readonly string[];
  readonly fullRefresh?: boolean;
  /** dbt's --empty: refs and sources render as limit-0 subqueries. */
  readonly empty?: boolean;
  /** compileProject: compile the selected snapshots too (default true; compile() is models only). */
  readonly snapshots?: boolean;
  /** Write target/compiled and target/run for every model (default true). */
  readonly writeArtifacts?: boolean;
}

export interface CompiledModel {
  readonly node: ModelNode;
  /** The SELECT a full build runs (is_incremental() false). */
  readonly fullSql: string;
  /** The SELECT an incremental run runs (is_incremental() true); incremental models only. */
  readonly incrementalSql?: string;
  /** What `run` would do now against the warehouse (first build if there is none). */
  readonly plan: NodePlan;
  /** Incremental models with partition_by, when the warehouse can answer: the partitions the incremental SELECT returns now. */
  readonly window?: IncrementalWindow;
  /** What the model's log() calls said while it rendered in the mode a run would use (dbt's compile prints them). */
  readonly logs: readonly string[];
}

/** What compile renders: the selected models, snapshots and analyses, in the DAG's order. */
export interface CompiledProject {
  readonly models: CompiledModel[];
  readonly snapshots: CompiledSnapshot[];
  readonly analyses: CompiledAnalysis[];
}

/** Render every selected model both ways and plan it, without writing to the warehouse. */
export function compile(options: CompileOptions = {}): CompiledModel[] {
  return compileProject({ ...options, snapshots: false }).models;
}

/**
 * compile: every selected model rendered both ways and planned, and every selected snapshot's query
 * rendered with the statements its next run would execute (target/compiled for both, as dbt writes them).
 */
export function compileProject(options: CompileOptions = {}): CompiledProject {
  const session = loadSession(options);
  const { manifest, graph, project } = session;
  const state = options.state !== undefined ? { state: selectionState(options.state, manifest, graph) } : {};
  const named = namedSelectionBase(options, project.root, graph, state.state);
  const selected = withoutEmptyNodes(manifest, selectNodes(graph, { select: options.select, exclude: options.exclude, resourceTypes: options.snapshots === false ? ['model'] : ['model', 'snapshot', 'analysis'], ...state, ...(named.base ? { base: named.base } : {}) }));
  warnUnusedVars(session, options.vars, selected);
  warnIgnoredAsOf(session, options.vars, selected);
  // A server's database (PostgreSQL) has no file: it is there to read; a SQLite file may not be yet.
  const db: Warehouse | undefined = engine.isInMemory(project.databasePath) || existsSync(project.databasePath) ? openProjectWarehouse(project, { readonly: true }) : undefined;
  const facts = db ? warehouseFacts(db) : undefined;
  // --defer: refs to unselected or unbuilt nodes render the state's relations.
  const defer = deferralOf(options, manifest, []);
  if (db) attachDeferredSchemas(db, defer);
  // compile runs nothing: no invocation id; microbatch batches end at the as_of var, else now.
  const context: RunContext = { ...PARSE_CONTEXT, command: 'compile', startedAt: now(), fullRefresh: options.fullRefresh ?? false, backfill: backfillOfVars(manifest.vars), vars: manifest.vars, ...(options.empty ? { empty: true } : {}), ...(defer ? { defer, selectedResources: [...selected] } : {}) };
  const snapshots = new Map([...(manifest.snapshots?.values() ?? [])].map((s) => [s.uniqueId, s]));
  const analyses = new Map([...(manifest.analyses?.values() ?? [])].map((a) => [a.uniqueId, a]));
  const t0 = performance.now();
  // dbt's compile writes run_results.json too: each compiled node a success with its compiled code.
  const results: NodeResult[] = [];
  const compiled = (node: { readonly uniqueId: string; readonly name: string; readonly alias: string; readonly schema: string }, resourceType: 'model' | 'snapshot' | 'analysis', code: string, started: string): NodeResult => {
    const completed = now();
    return {
      uniqueId: node.uniqueId, name: node.name, resourceType, status: 'success', message: null, executionTime: (completed.getTime() - Date.parse(started)) / 1000,
      startedAt: started, completedAt: completed.toISOString(),
      adapterResponse: {}, compiledCode: code, relationName: resourceType === 'analysis' ? null : relationName(node), rowsDeleted: 0, rowsInserted: 0, partitions: [], asOf: null, exitCode: 0,
    };
  };
  try {
    const out: CompiledModel[] = [];
    const compiledSnapshots: CompiledSnapshot[] = [];
    const compiledAnalyses: CompiledAnalysis[] = [];
    for (const id of topologicalOrder(graph, selected)) {
      const analysis = analyses.get(id);
      if (analysis) {
        const started = now().toISOString();
        const done = compileAnalysis(manifest, analysis, facts?.db, context, () => graphContext(manifest, graph));
        if (options.writeArtifacts !== false) writeAnalysisCompiled(project, done);
        compiledAnalyses.push(done);
        results.push(compiled(analysis, 'analysis', done.sql, started));
        continue;
      }
      const snapshot = snapshots.get(id);
      if (snapshot) {
        const started = now().toISOString();
        const done = compileSnapshot(manifest, snapshot, facts?.db, context);
        if (options.writeArtifacts !== false) writeSnapshotCompiled(project, done);
        compiledSnapshots.push(done);
        results.push(compiled(snapshot, 'snapshot', done.sql, started));
        continue;
      }
      const node = manifest.nodes.get(id);
      if (node?.resourceType !== 'model') continue;
      const started = now().toISOString();
      const logs = { full: [] as string[], incremental: [] as string[] };
      options.onPhase?.('render');
      const render = (incremental: boolean) => renderModel(manifest, node, { db: facts?.db, incremental, run: context, log: (m) => logs[incremental ? 'incremental' : 'full'].push(m), graph: () => graphContext(manifest, graph) });
      const full = render(false);
      const incremental = node.settings.materialized === 'incremental' ? render(true) : undefined;
      // The plan renders the model in the mode it decides: it reuses one of these two. A model a run
      // would fail (unknown materialization or strategy) still compiles, as in dbt: its plan says why.
      options.onPhase?.('plan');
      const plan = planNode({ facts, manifest, node, context, renderings: { full, incremental } }, { refusalAsPlan: true });
      if (options.writeArtifacts !== false) writeNodeArtifacts(project, node, plan);
      const part = node.settings.partitionColumn;
      const window = db && incremental && part ? incrementalWindow(db, incremental.sql, part) : undefined;
      // The logs of the rendering the plan's mode uses, once, outside any microbatch batch (as dbt's compile renders).
      const used = incremental && (plan.mode === 'incremental' || plan.mode === 'backfill') ? logs.incremental : logs.full;
      out.push({ node, fullSql: full.sql, incrementalSql: incremental?.sql, plan, ...(window ? { window } : {}), logs: used });
      results.push(compiled(node, 'model', incremental && (plan.mode === 'incremental' || plan.mode === 'backfill') ? incremental.sql : full.sql, started));
    }
    // target/manifest.json and run_results.json too, as dbt's compile writes them (tools read them after a compile;
    // every result a success, so a `retry` after it has nothing to do, as dbt's).
    if (options.writeArtifacts !== false) {
      writeRunArtifacts(project, manifest, graph, {
        invocationId: randomUUID(), command: 'compile', results, elapsedSeconds: (performance.now() - t0) / 1000, runStartedAt: context.startedAt,
        options: { select: options.select, exclude: options.exclude, fullRefresh: options.fullRefresh },
      });
    }
    return { models: out, snapshots: compiledSnapshots, analyses: compiledAnalyses };
  } finally {
    db?.close();
  }
}

import { existsSync } from 'node:fs';
import type { ModelNode } from '../compile/manifest.js';
import { isIncrementalRun, renderModel } from '../compile/render-model.js';
import { openWarehouse, type Warehouse } from '../db/open-warehouse.js';
import { selectNodes } from '../graph/select-nodes.js';
import { topologicalOrder } from '../graph/topological-order.js';
import type { NodePlan } from '../plan/node-plan.js';
import { partitionColumn } from '../plan/plan-model.js';
import { buildNodePlan } from '../execute/build-node-plan.js';
import { incrementalWindow, type IncrementalWindow } from '../analysis/incremental-window.js';
import { writeNodeArtifacts } from '../state/write-artifacts.js';
import { loadSession, type SessionOptions } from './session.js';
import { warnUnusedVars } from './warn-unused-vars.js';

export interface CompileOptions extends SessionOptions {
  readonly select?: readonly string[];
  readonly exclude?: readonly string[];
  readonly fullRefresh?: boolean;
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
}

/** Render every selected model both ways and plan it, without writing to the warehouse. */
export function compile(options: CompileOptions = {}): CompiledModel[] {
  const session = loadSession(options);
  const { manifest, graph, project } = session;
  const selected = selectNodes(graph, { select: options.select, exclude: options.exclude, resourceTypes: ['model'] });
  warnUnusedVars(session, options.vars, selected);
  const db: Warehouse | undefined = existsSync(project.databasePath) ? openWarehouse(project.databasePath, { readonly: true, busyTimeoutMs: project.busyTimeoutMs }) : undefined;
  try {
    const out: CompiledModel[] = [];
    for (const id of topologicalOrder(graph, selected)) {
      const node = manifest.nodes.get(id);
      if (node?.resourceType !== 'model') continue;
      const fullRefresh = options.fullRefresh ?? false;
      const full = renderModel(manifest, node, { db, fullRefresh, forceIncremental: false });
      const incremental = node.config.materialized === 'incremental' ? renderModel(manifest, node, { db, fullRefresh, forceIncremental: true }) : undefined;
      const plan = buildNodePlan({
        db,
        manifest,
        node,
        fullRefresh,
        backfill: manifest.vars.start != null && manifest.vars.end != null,
        // The live plan renders one of these two again: reuse it.
        rendered: incremental && isIncrementalRun(node, full.existing, fullRefresh) ? incremental : full,
      });
      if (options.writeArtifacts !== false) writeNodeArtifacts(project, node, plan);
      const part = partitionColumn(node);
      const window = db && incremental && part ? incrementalWindow(db, incremental.sql, part) : undefined;
      out.push({ node, fullSql: full.sql, incrementalSql: incremental?.sql, plan, ...(window ? { window } : {}) });
    }
    return out;
  } finally {
    db?.close();
  }
}

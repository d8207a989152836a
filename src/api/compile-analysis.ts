import { join } from 'node:path';
import type { AnalysisNode, Manifest, ModelNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import { parseModelSettings } from '../config/model-settings.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import type { RunContext } from '../invocation/run-context.js';
import type { Project } from '../project/project.js';
import { writeArtifact } from '../state/artifact-write-error.js';

/** An analysis as compile renders it (dbt's compiled_code): its SQL, for a person or a BI tool to run. */
export interface CompiledAnalysis {
  readonly node: AnalysisNode;
  readonly sql: string;
  /** What its log() calls said. */
  readonly logs: readonly string[];
}

/** The analysis as a model that is never built, so it renders exactly as a model does (refs, sources, macros, vars, `this`). */
function asModel(node: AnalysisNode): ModelNode {
  return { ...node, resourceType: 'model', settings: parseModelSettings({ materialized: 'view' }) };
}

export function compileAnalysis(manifest: Manifest, node: AnalysisNode, db: Warehouse | undefined, run: RunContext, graph?: () => unknown): CompiledAnalysis {
  const logs: string[] = [];
  const sql = renderModel(manifest, asModel(node), { db, incremental: false, run, log: (m) => logs.push(m), ...(graph ? { graph } : {}) }).sql;
  return { node, sql, logs };
}

/** target/compiled/<project>/<its file> (analyses/x.sql), where dbt's compile writes an analysis. */
export function analysisCompiledPath(project: Project, node: AnalysisNode): string {
  return join(project.root, project.paths.target, 'compiled', project.name, node.file.path);
}

export function writeAnalysisCompiled(project: Project, compiled: CompiledAnalysis): void {
  writeArtifact(project.root, analysisCompiledPath(project, compiled.node), `${compiled.sql}\n`);
}

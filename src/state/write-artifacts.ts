import { DBT_VERSION, MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import type { ProjectHookResult } from './hook-result.js';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { nowIso } from '../clock.js';
import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { NodeResult } from './node-result.js';
import type { Graph } from '../graph/graph-node.js';
import { planScript, type NodePlan } from '../plan/node-plan.js';
import type { Project } from '../project/project.js';
import { writeArtifact } from './artifact-write-error.js';
import { writeRunManifest } from './run-manifest.js';


/** Write a file, unless it already holds exactly this text (reading is much cheaper than rewriting). */
function write(project: Project, path: string, text: string): void {
  try {
    if (readFileSync(path, 'utf8') === text) return;
  } catch {
    // not there yet
  }
  writeArtifact(project.root, path, text);
}

/** target/compiled/<project>/<path> (the SELECT) and target/run/<project>/<path> (what ran), and each microbatch batch's. */
export function writeNodeArtifacts(project: Project, node: ModelNode, plan: NodePlan): void {
  const target = join(project.root, project.paths.target);
  write(project, join(target, 'compiled', project.name, node.file.path), `${plan.sql}\n`);
  write(project, join(target, 'run', project.name, node.file.path), `-- ${plan.mode}: ${plan.reason}\n${planScript(plan)}\n`);
  // A microbatch model's batches too, where dbt writes them: models/m.sql's batch 2020-01-01 in models/m/m_2020-01-01.sql.
  const stem = node.file.path.replace(/\.sql$/, '');
  for (const batch of plan.batches ?? []) {
    const file = join(project.name, stem, `${basename(stem)}_${batch.label}.sql`);
    write(project, join(target, 'compiled', file), `${batch.sql}\n`);
    write(project, join(target, 'run', file), `-- ${batch.mode}: batch ${batch.label} [${batch.start}, ${batch.end})\n${planScript({ ...plan, mode: batch.mode, sql: batch.sql, statements: batch.statements, batches: undefined })}\n`);
  }
}

export interface RunArtifactsInput {
  readonly invocationId: string;
  readonly command: string;
  readonly results: readonly NodeResult[];
  readonly elapsedSeconds: number;
  readonly runStartedAt: Date;
  readonly options: Readonly<Record<string, unknown>>;
  /** The project's on-run-start / on-run-end hooks that ran: listed before and after the nodes, as dbt lists them. */
  readonly hooks?: readonly ProjectHookResult[];
}

/** A project hook's entry in run_results.json, as dbt writes it (an `operation.` unique id, thread `main`). */
function hookEntry(h: ProjectHookResult): Record<string, unknown> {
  return {
    unique_id: h.uniqueId, status: h.status, timing: [], thread_id: 'main', execution_time: h.executionTime, adapter_response: {},
    message: h.message, failures: h.status === 'success' ? 0 : 1, compiled: h.status !== 'skipped', compiled_code: null, relation_name: null,
  };
}

/** target/manifest.json (when its nodes changed: state/run-manifest.ts) and target/run_results.json, with dbt's field names where dbt has them. */
export function writeRunArtifacts(project: Project, manifest: Manifest, graph: Graph, input: RunArtifactsInput): void {
  const target = join(project.root, project.paths.target);
  const metadata = {
    dbt_schema_version: 'https://schemas.getdbt.com/dbt/run-results/v6.json',
    dbt_version: DBT_VERSION,
    mini_dbt_version: VERSION,
    generated_at: nowIso(),
    invocation_id: input.invocationId,
  };
  writeRunManifest(project, manifest, graph, input.invocationId);
  const runResults = {
    metadata,
    elapsed_time: input.elapsedSeconds,
    args: { which: input.command, ...input.options, invocation_command: `mini-dbt ${input.command}` },
    results: [...(input.hooks ?? []).filter((h) => h.which === 'on-run-start').map(hookEntry), ...input.results.map((r) => ({
      unique_id: r.uniqueId,
      status: r.status,
      timing: r.status === 'skipped' ? [] : [{ name: 'execute', started_at: r.startedAt, completed_at: r.completedAt }],
      thread_id: r.threadId ?? 'Thread-1',
      execution_time: r.executionTime,
      adapter_response: r.adapterResponse,
      message: r.message,
      failures: r.failures ?? null,
      compiled: r.compiledCode !== undefined,
      compiled_code: r.compiledCode ?? null,
      relation_name: r.relationName,
      ...(r.batchResults ? { batch_results: r.batchResults } : {}),
      mini_dbt: {
        mode: r.plan?.mode ?? null,
        reason: r.plan?.reason ?? null,
        strategy: r.plan?.strategy ?? null,
        as_of: r.asOf,
        rows_deleted: r.rowsDeleted,
        rows_inserted: r.rowsInserted,
        partitions: r.partitions,
        ...(r.lateRowsNotApplied ? { late_rows_not_applied: r.lateRowsNotApplied } : {}),
      },
    })), ...(input.hooks ?? []).filter((h) => h.which === 'on-run-end').map(hookEntry)],
  };
  // A new invocation id every run: never the same text, so written without reading the old one first.
  writeArtifact(project.root, join(target, 'run_results.json'), `${JSON.stringify(runResults, null, 2)}\n`);
}

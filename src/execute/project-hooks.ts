import type { Manifest } from '../compile/manifest.js';
import { graphContext } from '../state/graph-context.js';
import type { Graph } from '../graph/graph-node.js';
import { operationRenderState } from '../compile/operation-render-state.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { isProjectError } from '../errors/project-error.js';
import { refuseReservedWrites } from '../engine/refuse-reserved-writes.js';
import type { RunContext } from '../invocation/run-context.js';
import type { ProjectHookResult, ProjectHookType } from '../state/hook-result.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';

export interface ProjectHooksOptions {
  readonly db: Warehouse;
  readonly manifest: Manifest;
  readonly which: ProjectHookType;
  readonly run: RunContext;
  readonly emit: (event: RunEvent) => void;
  /** on-run-end: the node results, for `results`, `schemas` and `database_schemas`. */
  readonly results?: readonly NodeResult[];
  /** on-run-end of a command whose results are not nodes' (source freshness): its own `results` and the rest. */
  readonly endLocals?: Readonly<Record<string, unknown>>;
  /** The project's graph, for dbt's `graph` variable in the hooks. */
  readonly graph?: Graph;
}

/**
 * The project file's on-run-start / on-run-end hooks, as dbt runs them: each rendered in the dbt context
 * (target, var, run_query, ref, macros; on-run-end also `results`, `schemas`, `database_schemas`) and run
 * outside any transaction, in order. The first that fails is an error and the ones after it are skipped.
 */
export function runProjectHooks(options: ProjectHooksOptions): ProjectHookResult[] {
  const { db, manifest, which, run, emit } = options;
  const project = manifest.project;
  const hooks = (which === 'on-run-start' ? project.onRunStart : project.onRunEnd) ?? [];
  if (hooks.length === 0) return [];
  const locals = options.endLocals ?? (options.results ? endLocals(manifest, options.results) : {});
  // Laid out as dbt's: on-run-start's lines end with a blank line, on-run-end's start with one.
  if (which === 'on-run-end') emit({ type: 'log', message: '' });
  emit({ type: 'log', message: `Running ${hooks.length} ${which} hook${hooks.length === 1 ? '' : 's'}` });
  const out: ProjectHookResult[] = [];
  let failed = false;
  for (const [i, template] of hooks.entries()) {
    const name = `${project.name}.${which}.${i}`;
    const base = { name, uniqueId: `operation.${project.name}.${project.name}-${which}-${i}`, which };
    const index = i + 1;
    if (failed) {
      out.push({ ...base, status: 'skipped', message: `${name} skipped`, executionTime: 0 });
      continue;
    }
    emit({ type: 'hook', index, total: hooks.length, name });
    const t0 = performance.now();
    let result: ProjectHookResult;
    try {
      const state = operationRenderState(manifest, { name: `${which} hook ${i}`, path: project.configFile, db, run, log: (message) => emit({ type: 'log', message }), debug: (message) => emit({ type: 'log', message, level: 'debug' }), print: (message) => emit({ type: 'log', message, level: 'print' }), ...(options.graph ? { graph: () => graphContext(manifest, options.graph!) } : {}) });
      const sql = template.includes('{') ? manifest.jinja.render(`${project.configFile}#${which}[${i}]`, template, state, locals).trim() : template.trim();
      // A hook that renders to nothing (a macro that only checks or logs) runs nothing, as in dbt.
      if (sql !== '') {
        // The project's SQL may read mini-dbt's own tables, never write them (E230).
        refuseReservedWrites(sql, `${which} hook ${i}`, { file: project.configFile });
        db.exec(sql);
      }
      result = { ...base, status: 'success', message: `${name} passed`, executionTime: (performance.now() - t0) / 1000 };
    } catch (err) {
      failed = true;
      const why = isProjectError(err) ? err.format() : err instanceof Error ? err.message : String(err);
      result = { ...base, status: 'error', message: `${name} failed, error:\n ${why}`, executionTime: (performance.now() - t0) / 1000 };
    }
    out.push(result);
    emit({ type: 'hook', index, total: hooks.length, name, result });
  }
  if (which === 'on-run-start') emit({ type: 'log', message: '' });
  return out;
}

/** on-run-end's extra context, as dbt gives it: the results, and the schemas that successful relations were built in. */
function endLocals(manifest: Manifest, results: readonly NodeResult[]): Record<string, unknown> {
  const schemas = new Set<string>();
  for (const r of results) {
    const node = manifest.nodes.get(r.uniqueId);
    if (node && (r.status === 'success' || r.status === 'partial success')) schemas.add(node.schema);
  }
  return {
    results: results.map((r) => ({
      node: { unique_id: r.uniqueId, name: r.name, resource_type: r.resourceType, schema: manifest.nodes.get(r.uniqueId)?.schema ?? null },
      status: r.status,
      message: r.message,
      execution_time: r.executionTime,
      failures: r.failures ?? null,
      adapter_response: r.adapterResponse,
    })),
    schemas: [...schemas],
    // The target's database, as target.database says: dbt-sqlite's is `main`, dbt-postgres's the dbname.
    database_schemas: [...schemas].map((schema) => [manifest.project.target.postgres?.dbname ?? 'main', schema]),
  };
}

import { randomUUID } from 'node:crypto';
import { refModelKey } from '../compile/versioned-ref.js';
import { now } from '../clock.js';
import type { AnalysisNode, Manifest, ModelNode, SeedNode, SnapshotNode } from '../compile/manifest.js';
import { inlineEphemerals, type EphemeralCte } from '../compile/inline-ephemerals.js';
import { operationRenderState } from '../compile/operation-render-state.js';
import { renderModel } from '../compile/render-model.js';
import { requireSelect } from '../compile/require-select.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { setQueryComment, withQueryComments } from '../engine/query-comment-connection.js';
import { renderQueryComment } from '../compile/render-query-comment.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { backfillOfVars, PARSE_CONTEXT, type RunContext } from '../invocation/run-context.js';
import { buildMode, rendersIncremental } from '../plan/build-mode.js';
import { loadSession, type SessionOptions } from './session.js';
import { attachDeferredSchemas, deferralOf } from './defer-state.js';
import { snapshotSql } from './compile-snapshot.js';
import { compileAnalysis } from './compile-analysis.js';
import { warnUser } from '../errors/user-warning.js';

export interface ShowOptions extends SessionOptions {
  /** Models, seeds or snapshots to preview, by name. */
  readonly select?: readonly string[];
  /** A query (Jinja rendered against the project) to preview instead. */
  readonly inline?: string;
  /** At most this many rows (default 5, as dbt); negative: every row. */
  readonly limit?: number;
  /** The models' log() output. */
  readonly log?: (message: string) => void;
}

export interface ShowPreview {
  /** The node's name; undefined for --inline. */
  readonly node?: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

export const DEFAULT_SHOW_LIMIT = 5;

/**
 * dbt's show: compile a model (or seed, or an inline query) and run its SELECT read-only against the
 * warehouse, limited as dbt limits it (the query wrapped in a subquery with `limit n`).
 */
export function show(options: ShowOptions): ShowPreview[] {
  const inline = options.inline;
  const names = options.select ?? [];
  if (inline === undefined && names.length === 0) throw new ProjectError('Either --select or --inline must be passed to show');
  const session = loadSession(options);
  const { manifest, project } = session;
  const nodes = inline === undefined ? names.map((name) => findShowable(manifest, name)) : [];
  // dbt's query-comment on show's queries too: the node's (an inline query is dbt's sql_operation inline_query).
  const inlineNode = { uniqueId: `sql_operation.${project.name}.inline_query`, name: 'inline_query', resourceType: 'sql_operation' };
  const comments = inline !== undefined ? [renderQueryComment(manifest, inlineNode, inlineNode.uniqueId)] : nodes.map((node) => renderQueryComment(manifest, node, node.uniqueId));
  const db = withQueryComments(openProjectWarehouse(project, { readonly: true }));
  // --defer: the shown node's refs to unbuilt (or, with --favor-state, any other) nodes read the state's relations.
  const defer = deferralOf(options, manifest, []);
  attachDeferredSchemas(db, defer);
  const run: RunContext = { ...PARSE_CONTEXT, command: 'show', invocationId: randomUUID(), startedAt: now(), backfill: backfillOfVars(manifest.vars), vars: manifest.vars, ...(defer ? { defer, selectedResources: nodes.map((n) => n.uniqueId) } : {}) };
  try {
    if (inline !== undefined) {
      setQueryComment(db, comments[0]);
      return [preview(db, inlineSql(manifest, db, run, inline, options.log), options.limit, 'inline query')];
    }
    return nodes.map((node, i) => {
      setQueryComment(db, comments[i]);
      return { node: node.name, ...preview(db, nodeSql(manifest, db, run, node, options.log), options.limit, `${node.resourceType} ${node.name}`) };
    });
  } finally {
    db.close();
  }
}

type Showable = ModelNode | SeedNode | SnapshotNode | AnalysisNode;

/** A model, seed, snapshot or analysis by name (a versioned model's name: its latest version, as ref() reads it); otherwise the closest name. */
function findShowable(manifest: Manifest, name: string): Showable {
  const node = manifest.models.get(refModelKey(manifest.models, name)) ?? manifest.seeds.get(name) ?? manifest.snapshots?.get(name) ?? manifest.analyses?.get(name);
  if (node) return node;
  if (manifest.disabled.has(name)) throw new ProjectError(`model '${name}' is disabled (enabled: false)`);
  const names = [...manifest.models.keys(), ...manifest.seeds.keys(), ...(manifest.snapshots?.keys() ?? []), ...(manifest.analyses?.keys() ?? [])];
  throw new ProjectError(`show: no model, seed, snapshot or analysis named '${name}'.${didYouMeanSuffix(name, names)}`, {
    hint: 'show previews models, seeds, snapshots and analyses by name (--select takes names here, not selectors); `mini-dbt ls` lists them',
  });
}

/**
 * The SELECT a node previews: a model compiled as a run would compile it now (ephemeral refs inlined), a
 * seed's table, a snapshot's query (dbt's show runs a snapshot's compiled code, which is its query: a trap,
 * so it warns in one line and says how to see the snapshot table).
 */
function nodeSql(manifest: Manifest, db: Warehouse, run: RunContext, node: Showable, log?: (message: string) => void): string {
  if (node.resourceType === 'seed') return `select * from ${quoteIdentifier(node.schema)}.${quoteIdentifier(node.alias)}`;
  // An analysis's compiled code, run read-only: what a person would paste into a query tool.
  if (node.resourceType === 'analysis') return compileAnalysis(manifest, node, db, run).sql;
  if (node.resourceType === 'snapshot') {
    warnUser(`show previews the query of snapshot '${node.name}' (the rows its next run reads), as dbt's show does, not the snapshot table; to see its rows and their history: mini-dbt show --inline "select * from {{ ref('${node.name}') }}"`, 'ShowSnapshotQuery');
    return snapshotSql(manifest, node, db, run, log);
  }
  const existing = node.settings.materialized === 'ephemeral' ? null : relationKind(db, node.alias, node.schema);
  const mode = buildMode({ node, existing, context: run });
  // A microbatch model previews its whole SELECT (no batch), as dbt's show compiles it.
  const incremental = mode.kind !== 'microbatch' && rendersIncremental(mode);
  return renderModel(manifest, node, { db, incremental, existing, run, log }).sql;
}

/** --inline: rendered with the project's context (ref, source, var, macros), refused unless it is one SELECT. */
function inlineSql(manifest: Manifest, db: Warehouse, run: RunContext, template: string, log?: (message: string) => void): string {
  const ctes = new Map<string, EphemeralCte>();
  const state = operationRenderState(manifest, { name: 'inline query', path: '<inline>', db, run, log, ctes });
  const rendered = manifest.jinja.render('<inline>', template, state).trim();
  return inlineEphemerals(requireSelect(rendered, 'the --inline query'), [...ctes.values()]);
}

function preview(db: Warehouse, sql: string, limit: number | undefined, what: string): Omit<ShowPreview, 'node'> {
  const max = limit ?? DEFAULT_SHOW_LIMIT;
  // dbt's get_limit_subquery_sql: the warehouse returns only the rows shown.
  const query = max >= 0 ? `select * from (\n${sql}\n) as model_limit_subq limit ${Math.floor(max)}` : sql;
  try {
    const statement = db.prepare(query);
    return { columns: statement.columnNames(), rows: statement.rows() };
  } catch (err) {
    throw new ProjectError(`Database Error in ${what}: ${err instanceof Error ? err.message : String(err)}`, { exitCode: 1 });
  }
}

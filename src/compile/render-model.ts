import { refModelKey } from './versioned-ref.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { relationKind, type RelationKind } from '../engine/relation-kind.js';
import { PARSE_CONTEXT, type RunContext } from '../invocation/run-context.js';
import { ProjectError } from '../errors/project-error.js';
import { emptySubquery, eventTimeRelation, sampleWindowBatch, type EventTimeBatch } from './event-time-filter.js';
import { ephemeralCteName, inlineEphemerals, type EphemeralCte } from './inline-ephemerals.js';
import type { Manifest, ManifestNode, ModelNode } from './manifest.js';
import { Relation } from './relation.js';
import type { RenderState } from './render-state.js';
import { findLine } from './find-line.js';
import { requireOneStatement } from './single-statement.js';
import { deferredRelation, refuseDeferredView } from './deferred-ref.js';

export interface RenderModelOptions {
  /** The warehouse templates query (run_query, statement); without it the target is taken as absent. */
  readonly db?: Warehouse;
  /** What is_incremental() returns: decided by plan/build-mode.ts (compile also renders both ways). */
  readonly incremental: boolean;
  /** What `this` is in the warehouse (looked up in `db` when not given). */
  readonly existing?: RelationKind | null;
  /** The invocation (PARSE_CONTEXT when absent): invocation_id, run_started_at, flags. */
  readonly run?: RunContext;
  readonly log?: (message: string) => void;
  /** Where log() at debug level goes (dbt's log() without info=True). */
  readonly debug?: (message: string) => void;
  /** Where print() goes. */
  readonly print?: (text: string) => void;
  /** dbt's `graph` variable, built when a template asks. */
  readonly graph?: () => unknown;
  /** A microbatch batch: refs and sources that declare event_time are filtered to it. */
  readonly batch?: EventTimeBatch;
}

export interface RenderedModel {
  readonly sql: string;
}

const isEphemeral = (node: ManifestNode) => node.resourceType === 'model' && node.settings.materialized === 'ephemeral';

/**
 * The dbt context of one model render against the warehouse. Ephemeral
 * models it refs are rendered into `ctes` (their own ephemeral refs first).
 */
export function modelRenderState(
  manifest: Manifest, node: ModelNode, options: RenderModelOptions, existing: RelationKind | null, ctes: Map<string, EphemeralCte>,
): RenderState {
  const vars = (node.file.package !== undefined ? manifest.packageVars?.get(node.file.package) : undefined) ?? manifest.vars;
  // --empty: refs and sources (not `this`) read as empty subqueries.
  const empty = options.run?.empty === true;
  // A microbatch batch's window, else --sample's: refs and sources with an event_time keep the rows in it.
  const window = options.batch ?? sampleWindowBatch(options.run);
  return {
    modelName: node.name,
    modelPath: node.file.path,
    ...(node.file.version ? { modelVersion: node.file.version } : {}),
    packageName: node.file.package,
    execute: true,
    vars: (name) => ({ found: Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== undefined, value: vars[name] }),
    varNames: () => Object.keys(vars),
    ref: (name, pkg) => {
      const target = manifest.models.get(refModelKey(manifest.models, name)) ?? manifest.seeds.get(name) ?? manifest.snapshots?.get(name);
      if (pkg !== undefined && (!target || (target.fqn[0] ?? manifest.project.name) !== pkg)) {
        const installed = [manifest.project.name, ...(manifest.project.packages ?? []).map((p) => p.name)];
        throw new ProjectError(installed.includes(pkg)
          ? `ref('${pkg}', '${name}'): package '${pkg}' has no node named '${name}'`
          : `ref('${pkg}', '${name}'): package '${pkg}' is not installed (installed: ${installed.join(', ')})`);
      }
      if (!target) throw new ProjectError(`model '${node.name}' depends on a node named '${name}' which was not found`);
      if (!node.refs.includes(name)) {
        throw new ProjectError(`model '${node.name}' calls ref('${name}') only at run time, so its dependency was not captured`, {
          hint: `add a comment: -- depends_on: {{ ref('${name}') }}`,
        });
      }
      if (target.resourceType === 'model' && isEphemeral(target)) return ephemeralRelation(manifest, target, options, ctes);
      // --defer: an unselected or unbuilt node may be read where the state's manifest built it.
      const deferred = deferredRelation(options.run, options.db, target);
      if (deferred) refuseDeferredView(options.run, manifest.project.target.postgres === undefined, { name: node.name, schema: node.schema, materialized: node.settings.materialized }, name, deferred);
      const at = deferred ?? target;
      if (target.resourceType === 'snapshot') return eventTimeRelation(at.alias, 'table', undefined, options.batch, empty, at.schema);
      const type = target.resourceType === 'seed' ? 'table' : (target.settings.materialized as 'table' | 'view');
      return eventTimeRelation(at.alias, type, target.settings.eventTime, window, empty, at.schema);
    },
    source: (s, t) => {
      const source = manifest.sources.get(`${s}.${t}`);
      if (!source) throw new ProjectError(`source '${s}.${t}' was not found`);
      return eventTimeRelation(source.alias, 'table', source.settings.eventTime, window, empty, source.schema);
    },
    self: new Relation(node.alias, existing, undefined, node.schema),
    isIncremental: () => options.incremental,
    config: node.config,
    captured: { refs: [], sources: [], config: {} },
    db: options.db,
    run: options.run ?? PARSE_CONTEXT,
    target: manifest.project.target,
    projectFlags: manifest.project.flags,
    projectName: manifest.project.name,
    databasePath: manifest.project.databasePath,
    log: options.log ?? (() => undefined),
    ...(options.debug ? { debug: options.debug } : {}),
    ...(options.print ? { print: options.print } : {}),
    ...(options.graph ? { graph: options.graph } : {}),
    batch: options.batch,
  };
}

/**
 * What ref() to an ephemeral model returns: its CTE's name, the model rendered into `ctes` (its own
 * ephemeral refs first) for the caller to inline; a data test that refs one inlines it the same way.
 */
export function ephemeralRelation(manifest: Manifest, target: ModelNode, options: RenderModelOptions, ctes: Map<string, EphemeralCte>): Relation {
  const cte = ephemeralCteName(target.alias);
  if (!ctes.has(target.name)) {
    let body: Body;
    try {
      body = renderBody(manifest, target, { ...options, incremental: false, existing: null, batch: undefined }, ctes);
    } catch (err) {
      // dbt's wording, at the ephemeral's own file and line.
      if (!(err instanceof ProjectError) || err.message.includes('referenced ephemeral model')) throw err;
      throw new ProjectError(`compilation error in referenced ephemeral model ${target.uniqueId}: ${err.message}`, { location: err.location.file ? err.location : { file: target.file.path }, hint: err.hint });
    }
    ctes.set(target.name, { name: cte, sql: body.sql });
  }
  return new Relation(cte, 'ephemeral', options.run?.empty === true ? emptySubquery(cte, cte) : cte);
}

interface Body {
  readonly sql: string;
  readonly state: RenderState;
}

function renderBody(manifest: Manifest, node: ModelNode, options: RenderModelOptions, ctes: Map<string, EphemeralCte>): Body {
  const existing = isEphemeral(node) ? null : options.existing !== undefined ? options.existing : options.db ? relationKind(options.db, node.alias, node.schema) : null;
  const state = modelRenderState(manifest, node, options, existing, ctes);
  const rendered = manifest.jinja.render(node.file.path, node.file.rawSql, state).trim();
  const sql = requireOneStatement(rendered, {
    what: `model '${node.name}'`,
    file: node.file.path,
    lineOf: (start) => findLine(node.file.rawSql, start),
    rule: 'a model is one select',
    hint: 'remove the `;` and what follows it; statements that must run around a model belong in pre_hook / post_hook, which may hold several',
  });
  return { sql, state };
}

/**
 * Pass 2: render a model against the real warehouse state. Ephemeral models
 * it refs (recursively) are inlined as CTEs merged into its leading WITH.
 * Its hooks are not rendered here: each is rendered when it runs (render-model-hook.ts).
 */
export function renderModel(manifest: Manifest, node: ModelNode, options: RenderModelOptions): RenderedModel {
  const ctes = new Map<string, EphemeralCte>();
  const body = renderBody(manifest, node, options, ctes);
  return { sql: inlineEphemerals(body.sql, [...ctes.values()]) };
}

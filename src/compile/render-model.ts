import type { Warehouse } from '../db/open-warehouse.js';
import { relationKind, type RelationKind } from '../db/relation-kind.js';
import { configHooks, type Hook } from '../config/hook-config.js';
import { ProjectError } from '../errors/project-error.js';
import { eventTimeRelation, type EventTimeBatch } from './event-time-filter.js';
import { ephemeralCteName, inlineEphemerals, type EphemeralCte } from './inline-ephemerals.js';
import type { Manifest, ModelNode } from './manifest.js';
import { Relation } from './relation.js';
import type { RenderState } from './render-state.js';
import { shouldFullRefresh } from './should-full-refresh.js';
import { findLine } from './find-line.js';
import { requireOneStatement } from './single-statement.js';

export interface RenderModelOptions {
  /** The warehouse, to answer is_incremental(); without it the target is taken as absent. */
  readonly db?: Warehouse;
  readonly fullRefresh?: boolean;
  /** Force is_incremental() (compile shows both renderings). */
  readonly forceIncremental?: boolean;
  readonly invocationId?: string;
  readonly runStartedAt?: Date;
  readonly log?: (message: string) => void;
  /** A microbatch batch: refs and sources that declare event_time are filtered to it. */
  readonly batch?: EventTimeBatch;
}

export interface RenderedModel {
  readonly sql: string;
  readonly isIncremental: boolean;
  /** What the target is in the warehouse right now. */
  readonly existing: RelationKind | null;
  /** pre_hook / post_hook with their templates rendered in the model's context. */
  readonly hooks: { readonly pre_hook: readonly Hook[]; readonly post_hook: readonly Hook[] };
}

/** Whether dbt's is_incremental() holds for this model against this warehouse. */
export function isIncrementalRun(node: ModelNode, existing: RelationKind | null, fullRefreshFlag: boolean): boolean {
  return node.config.materialized === 'incremental' && existing === 'table' && !shouldFullRefresh(node.config, fullRefreshFlag);
}

const isEphemeral = (node: { resourceType: string; config: Readonly<Record<string, unknown>> }) =>
  node.resourceType === 'model' && node.config.materialized === 'ephemeral';

/**
 * The dbt context of one model render against the warehouse. Ephemeral
 * models it refs are rendered into `ctes` (their own ephemeral refs first).
 */
export function modelRenderState(
  manifest: Manifest, node: ModelNode, options: RenderModelOptions, existing: RelationKind | null, incremental: boolean, ctes: Map<string, EphemeralCte>,
): RenderState {
  const { vars } = manifest;
  return {
    modelName: node.name,
    modelPath: node.file.path,
    execute: true,
    vars: (name) => ({ found: Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== undefined, value: vars[name] }),
    varNames: () => Object.keys(vars),
    ref: (name, pkg) => {
      if (pkg !== undefined && pkg !== manifest.project.name) {
        throw new ProjectError(`ref('${pkg}', '${name}'): package '${pkg}' is not installed (only '${manifest.project.name}')`);
      }
      const target = manifest.models.get(name) ?? manifest.seeds.get(name);
      if (!target) throw new ProjectError(`model '${node.name}' depends on a node named '${name}' which was not found`);
      if (!node.refs.includes(name)) {
        throw new ProjectError(`model '${node.name}' calls ref('${name}') only at run time, so its dependency was not captured`, {
          hint: `add a comment: -- depends_on: {{ ref('${name}') }}`,
        });
      }
      if (target.resourceType === 'model' && isEphemeral(target)) {
        const cte = ephemeralCteName(target.alias);
        if (!ctes.has(target.name)) {
          const body = renderBody(manifest, target, { ...options, forceIncremental: false, batch: undefined }, ctes);
          ctes.set(target.name, { name: cte, sql: body.sql });
        }
        return new Relation(cte, 'ephemeral', cte);
      }
      const type = target.resourceType === 'seed' ? 'table' : (target.config.materialized as 'table' | 'view');
      return eventTimeRelation(target.alias, type, target.config.event_time, options.batch);
    },
    source: (s, t) => {
      const source = manifest.sources.get(`${s}.${t}`);
      if (!source) throw new ProjectError(`source '${s}.${t}' was not found`);
      return eventTimeRelation(source.alias, 'table', source.config.event_time, options.batch);
    },
    self: new Relation(node.alias, existing),
    isIncremental: () => incremental,
    config: node.config,
    captured: { refs: [], sources: [], config: {} },
    db: options.db,
    invocationId: options.invocationId ?? '',
    runStartedAt: options.runStartedAt ?? new Date(0),
    targetName: 'dev',
    databasePath: manifest.project.databasePath,
    fullRefresh: options.fullRefresh ?? false,
    log: options.log ?? (() => undefined),
    batch: options.batch,
  };
}

interface Body {
  readonly sql: string;
  readonly state: RenderState;
  readonly existing: RelationKind | null;
  readonly incremental: boolean;
}

function renderBody(manifest: Manifest, node: ModelNode, options: RenderModelOptions, ctes: Map<string, EphemeralCte>): Body {
  const existing = options.db && !isEphemeral(node) ? relationKind(options.db, node.alias) : null;
  const incremental = options.forceIncremental ?? isIncrementalRun(node, existing, options.fullRefresh ?? false);
  const state = modelRenderState(manifest, node, options, existing, incremental, ctes);
  const rendered = manifest.jinja.render(node.file.path, node.file.rawSql, state).trim();
  const sql = requireOneStatement(rendered, {
    what: `model '${node.name}'`,
    file: node.file.path,
    lineOf: (start) => findLine(node.file.rawSql, start),
    rule: 'a model is one select',
    hint: 'remove the `;` and what follows it; statements that must run around a model belong in pre_hook / post_hook, which may hold several',
  });
  return { sql, state, existing, incremental };
}

/**
 * Pass 2: render a model against the real warehouse state. Ephemeral models
 * it refs (recursively) are inlined as CTEs merged into its leading WITH;
 * its hooks are rendered in the same context.
 */
export function renderModel(manifest: Manifest, node: ModelNode, options: RenderModelOptions = {}): RenderedModel {
  const ctes = new Map<string, EphemeralCte>();
  const body = renderBody(manifest, node, options, ctes);
  const hooks = (which: 'pre_hook' | 'post_hook'): Hook[] =>
    configHooks(node.config, which).map((h, i) => ({
      sql: h.sql.includes('{') ? manifest.jinja.render(`${node.file.path}#${which}[${i}]`, h.sql, body.state).trim() : h.sql,
      transaction: h.transaction,
    }));
  return {
    sql: inlineEphemerals(body.sql, [...ctes.values()]),
    isIncremental: body.incremental,
    existing: body.existing,
    hooks: { pre_hook: hooks('pre_hook'), post_hook: hooks('post_hook') },
  };
}

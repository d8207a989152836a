import type { Warehouse } from '../db/open-warehouse.js';
import { relationKind, type RelationKind } from '../db/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import type { Manifest, ModelNode } from './manifest.js';
import { Relation } from './relation.js';
import type { RenderState } from './render-state.js';
import { shouldFullRefresh } from './should-full-refresh.js';

export interface RenderModelOptions {
  /** The warehouse, to answer is_incremental(); without it the target is taken as absent. */
  readonly db?: Warehouse;
  readonly fullRefresh?: boolean;
  /** Force is_incremental() (compile shows both renderings). */
  readonly forceIncremental?: boolean;
  readonly invocationId?: string;
  readonly runStartedAt?: Date;
  readonly log?: (message: string) => void;
}

export interface RenderedModel {
  readonly sql: string;
  readonly isIncremental: boolean;
  /** What the target is in the warehouse right now. */
  readonly existing: RelationKind | null;
}

/** Whether dbt's is_incremental() holds for this model against this warehouse. */
export function isIncrementalRun(node: ModelNode, existing: RelationKind | null, fullRefreshFlag: boolean): boolean {
  return node.config.materialized === 'incremental' && existing === 'table' && !shouldFullRefresh(node.config, fullRefreshFlag);
}

/** Pass 2: render a model against the real warehouse state. */
export function renderModel(manifest: Manifest, node: ModelNode, options: RenderModelOptions = {}): RenderedModel {
  const existing = options.db ? relationKind(options.db, node.alias) : null;
  const incremental = options.forceIncremental ?? isIncrementalRun(node, existing, options.fullRefresh ?? false);
  const { vars } = manifest;
  const state: RenderState = {
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
      return new Relation(target.alias, target.resourceType === 'seed' ? 'table' : (target.config.materialized as 'table' | 'view'));
    },
    source: (s, t) => {
      const source = manifest.sources.get(`${s}.${t}`);
      if (!source) throw new ProjectError(`source '${s}.${t}' was not found`);
      return new Relation(source.alias, 'table');
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
  };
  const sql = manifest.jinja.render(node.file.path, node.file.rawSql, state);
  return { sql: sql.trim(), isIncremental: incremental, existing };
}

import { refModelKey } from './versioned-ref.js';
import { deferredRelation } from './deferred-ref.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { PARSE_CONTEXT, type RunContext } from '../invocation/run-context.js';
import { eventTimeRelation } from './event-time-filter.js';
import type { EphemeralCte } from './inline-ephemerals.js';
import type { Manifest } from './manifest.js';
import { Relation } from './relation.js';
import type { RenderState } from './render-state.js';
import { ephemeralRelation } from './render-model.js';

export interface OperationRenderOptions {
  /** What the operation is called in messages: `inline query`, `on-run-start hook 0`, `macro 'grant_select'`. */
  readonly name: string;
  /** Where its text comes from (the project file, `<inline>`, the macro's file). */
  readonly path: string;
  /** The warehouse run_query and statement run on. */
  readonly db?: Warehouse;
  readonly run?: RunContext;
  readonly log?: (message: string) => void;
  /** Where log() at debug level goes (dbt's log() without info=True). */
  readonly debug?: (message: string) => void;
  /** Where print() goes. */
  readonly print?: (text: string) => void;
  /** dbt's `graph` variable, built when a template asks. */
  readonly graph?: () => unknown;
  /** Ephemeral models it refs are rendered here, for the caller to inline as CTEs. */
  readonly ctes?: Map<string, EphemeralCte>;
  /** What var() sees (default the root project's): run-operation of a package's macro sees that package's vars, as dbt's macro context does. */
  readonly vars?: Readonly<Record<string, unknown>>;
}

/**
 * The dbt context of SQL that belongs to no model: project hooks (on-run-start, on-run-end),
 * run-operation's macro, show --inline. ref() reaches every model and seed (nothing is captured as
 * a dependency: an operation is not in the DAG), source() every source, `this` is the target schema.
 */
export function operationRenderState(manifest: Manifest, options: OperationRenderOptions): RenderState {
  const vars = options.vars ?? manifest.vars;
  const ctes = options.ctes ?? new Map<string, EphemeralCte>();
  const run = options.run ?? PARSE_CONTEXT;
  return {
    modelName: options.name,
    modelPath: options.path,
    execute: true,
    vars: (name) => ({ found: Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== undefined, value: vars[name] }),
    varNames: () => Object.keys(vars),
    ref: (name, pkg) => {
      if (pkg !== undefined && pkg !== manifest.project.name) {
        throw new ProjectError(`ref('${pkg}', '${name}'): package '${pkg}' is not installed (only '${manifest.project.name}')`);
      }
      const target = manifest.models.get(refModelKey(manifest.models, name)) ?? manifest.seeds.get(name) ?? manifest.snapshots?.get(name);
      if (!target) {
        throw new ProjectError(`${options.name} depends on a node named '${name}' which was not found.${didYouMeanSuffix(name, [...manifest.models.keys(), ...manifest.seeds.keys()])}`);
      }
      if (target.resourceType === 'model' && target.settings.materialized === 'ephemeral') {
        return ephemeralRelation(manifest, target, { db: options.db, incremental: false, run, log: options.log }, ctes);
      }
      const type = target.resourceType !== 'model' ? 'table' : (target.settings.materialized === 'view' ? 'view' : 'table');
      // --defer (show --inline): an unbuilt node is read where the state's manifest built it.
      const at = deferredRelation(run, options.db, target) ?? target;
      return eventTimeRelation(at.alias, type, undefined, undefined, false, at.schema);
    },
    source: (s, t) => {
      const source = manifest.sources.get(`${s}.${t}`);
      if (!source) throw new ProjectError(`${options.name} depends on a source named '${s}.${t}' which was not found.${didYouMeanSuffix(`${s}.${t}`, [...manifest.sources.keys()])}`);
      return eventTimeRelation(source.alias, 'table', undefined, undefined, false, source.schema);
    },
    self: new Relation(manifest.project.target.schema, null, undefined, manifest.project.target.schema),
    isIncremental: () => false,
    config: {},
    captured: { refs: [], sources: [], config: {} },
    db: options.db,
    run,
    target: manifest.project.target,
    projectFlags: manifest.project.flags,
    projectName: manifest.project.name,
    databasePath: manifest.project.databasePath,
    log: options.log ?? (() => undefined),
    ...(options.debug ? { debug: options.debug } : {}),
    ...(options.print ? { print: options.print } : {}),
    ...(options.graph ? { graph: options.graph } : {}),
  };
}

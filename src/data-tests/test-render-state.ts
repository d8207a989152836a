import { refModelKey } from '../compile/versioned-ref.js';
import type { Manifest } from '../compile/manifest.js';
import { Relation, type RelationType } from '../compile/relation.js';
import { emptySubquery } from '../compile/event-time-filter.js';
import type { RenderState } from '../compile/render-state.js';
import { ephemeralRelation } from '../compile/render-model.js';
import type { EphemeralCte } from '../compile/inline-ephemerals.js';
import type { Target } from '../project/target.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { PARSE_CONTEXT, type RunContext } from '../invocation/run-context.js';
import { ProjectError } from '../errors/project-error.js';
import { deferredRelation } from '../compile/deferred-ref.js';
import type { TestNode } from '../compile/test-node.js';

export interface TestRenderOptions {
  readonly db?: Warehouse;
  /** The invocation (PARSE_CONTEXT when absent). */
  readonly run?: RunContext;
  readonly log?: (message: string) => void;
  /** Receives the config() calls the test's SQL makes (a generic test macro's `config(fail_calc=...)`). */
  readonly capturedConfig?: Record<string, unknown>;
}

type Captured = { refs: string[]; sources: [string, string][]; config: Record<string, unknown> };

interface StateInput {
  readonly name: string;
  readonly path: string;
  readonly config: Record<string, unknown>;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly databasePath: string;
  readonly target: Target;
  readonly execute: boolean;
  readonly ref: (name: string, pkg?: string) => Relation;
  readonly source: (s: string, t: string) => Relation;
  readonly captured?: Captured;
  readonly options?: TestRenderOptions;
  readonly projectFlags?: Readonly<Record<string, unknown>>;
  readonly projectName?: string;
  /** An installed package's test: its macros come first unqualified. */
  readonly packageName?: string;
}

function baseState(input: StateInput): RenderState {
  const { vars } = input;
  return {
    modelName: input.name,
    modelPath: input.path,
    packageName: input.packageName,
    execute: input.execute,
    vars: (name) => ({ found: Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== undefined, value: vars[name] }),
    varNames: () => Object.keys(vars),
    ref: input.ref,
    source: input.source,
    self: new Relation(input.name),
    isIncremental: () => false,
    config: input.config,
    captured: { refs: [], sources: [], config: input.captured?.config ?? input.options?.capturedConfig ?? {} },
    db: input.options?.db,
    run: input.options?.run ?? PARSE_CONTEXT,
    target: input.target,
    databasePath: input.databasePath,
    log: input.options?.log ?? (() => undefined),
    projectFlags: input.projectFlags,
    projectName: input.projectName,
  };
}

/** The capture pass of a test: records refs, sources and config() calls; relations are placeholders. */
export function captureTestState(
  name: string, path: string, config: Record<string, unknown>, vars: Readonly<Record<string, unknown>>, databasePath: string, target: Target,
  sourceAlias: (s: string, t: string) => string, captured: Captured, packageName?: string,
): RenderState {
  return baseState({
    name, path, config, vars, databasePath, target, execute: false, captured, packageName,
    ref: (refName) => {
      if (!captured.refs.includes(refName)) captured.refs.push(refName);
      return new Relation(refName);
    },
    source: (s, t) => {
      if (!captured.sources.some(([a, b]) => a === s && b === t)) captured.sources.push([s, t]);
      return new Relation(sourceAlias(s, t));
    },
  });
}

/** A test rendered against the warehouse: ref() and source() resolve to the real relations. */
export function runtimeTestState(manifest: Manifest, test: TestNode, options: TestRenderOptions, ctes: Map<string, EphemeralCte> = new Map()): RenderState {
  // --empty (build): a test reads its refs and sources as empty subqueries too, as dbt's do.
  const relation = (node: { readonly alias: string; readonly schema: string }, type: RelationType) => {
    const bare = new Relation(node.alias, type, undefined, node.schema);
    return options.run?.empty ? new Relation(node.alias, type, emptySubquery(bare.render(), bare.identifier), node.schema) : bare;
  };
  return baseState({
    name: test.name, path: test.path, config: { ...test.config }, vars: manifest.packageVars?.get(test.fqn[0] ?? '') ?? manifest.vars, databasePath: manifest.project.databasePath, target: manifest.project.target, execute: true, options, projectFlags: manifest.project.flags, projectName: manifest.project.name,
    packageName: test.fqn[0] !== undefined && test.fqn[0] !== manifest.project.name ? test.fqn[0] : undefined,
    ref: (name, pkg) => {
      const target = manifest.models.get(refModelKey(manifest.models, name)) ?? manifest.seeds.get(name);
      if (pkg !== undefined && (target?.fqn[0] ?? manifest.project.name) !== pkg) throw new ProjectError(`ref('${pkg}', '${name}'): package '${pkg}' has no node named '${name}'`);
      if (!target) throw new ProjectError(`test '${test.name}' depends on a node named '${name}' which was not found`);
      // An ephemeral model is inlined as a CTE, as it is into a model (dbt does the same for tests).
      if (target.resourceType === 'model' && target.settings.materialized === 'ephemeral') {
        return ephemeralRelation(manifest, target, { db: options.db, run: options.run, log: options.log, incremental: false }, ctes);
      }
      // --defer: a test reads an unselected or unbuilt node where the state's manifest built it, as dbt's ref() does.
      return relation(deferredRelation(options.run, options.db, target) ?? target, target.resourceType === 'seed' ? 'table' : (target.settings.materialized as 'table' | 'view'));
    },
    source: (s, t) => {
      const source = manifest.sources.get(`${s}.${t}`);
      if (!source) throw new ProjectError(`source '${s}.${t}' was not found`);
      return relation(source, 'table');
    },
  });
}

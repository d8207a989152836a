import { folderConfigLayers, nodeConfigLayer, packageConfigLayers } from '../config/folder-config.js';
import { exposureNodes } from './exposure-nodes.js';
import { mergeConfigs } from '../config/merge-configs.js';
import { projectSourceConfigs } from '../config/source-project-config.js';
import { parseModelSettings, parseSeedSettings, parseSourceSettings } from '../config/model-settings.js';
import { ProjectError, ProjectErrors } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { GraphNode } from '../graph/graph-node.js';
import type { Project } from '../project/project.js';
import { findLine } from '../compile/find-line.js';
import { JinjaEnvironment } from '../compile/jinja-environment.js';
import type { AnalysisNode, Manifest, ManifestNode, ModelNode, SeedNode, SnapshotNode, SourceNode } from '../compile/manifest.js';
import { resolvePackageVars, resolveVars } from '../compile/resolve-vars.js';
import { captureTests } from '../data-tests/capture-tests.js';
import type { TestNode } from '../compile/test-node.js';
import { captureUnitTests } from '../unit-tests/capture-unit-tests.js';
import type { UnitTestNode } from '../compile/unit-test-node.js';
import { constraintDependencies, contractProblem } from './validate-contract.js';
import { customStrategyNames, validateModelConfig } from './validate-model-config.js';
import { grantsConfigProblem } from '../config/grants-config.js';
import { RenderFailureErrors, skipsOfRenderFailures } from '../compile/render-failure-skips.js';
import { relationNameProblems } from '../compile/check-relation-names.js';
import { baseModelConfig, captureModel, type CaptureContext, type ModelCapture } from './capture-model.js';
import { rememberYmlRendering, renderTestDescriptions, renderYmlValues } from './render-yml.js';
import { schemaNamer } from './node-schema.js';
import { checkMicrobatchInputs } from './microbatch-inputs.js';
import { captureSnapshots } from './capture-snapshots.js';
import { modelAccessProblems } from './model-access.js';
import { analysisGraphNodes, captureAnalyses } from './capture-analyses.js';
import { warnUser } from '../errors/user-warning.js';
import { defaultModelAlias, modelFqnTail } from '../project/model-version.js';
import { refModelKey, unknownVersionError } from '../compile/versioned-ref.js';

export interface CaptureOptions {
  readonly vars?: Readonly<Record<string, unknown>>;
  /** Pass-1 results by model name (the parse cache): used instead of rendering those models. */
  readonly cached?: ReadonlyMap<string, ModelCapture>;
  /** The project's macro names, known from an earlier load of the same macros (the parse cache). */
  readonly macroNames?: readonly string[];
  /** Receives the pass-1 result of every model it renders (to fill the parse cache). */
  readonly onCapture?: (name: string, capture: ModelCapture) => void;
  /** The environment to render with (an earlier capture's, so its macros are not compiled again). */
  readonly jinja?: JinjaEnvironment;
  /** false: every model is rendered in pass 1, none captured statically (the differential tests compare both). */
  readonly staticCapture?: boolean;
}


const stringList = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/**
 * Pass 1: render every model without a warehouse to capture its refs,
 * sources and config(). Incremental models are captured with
 * is_incremental() both false and true, so a ref used only on one branch is
 * still a dependency. Every problem is collected and thrown together.
 */
export function captureProject(loaded: Project, options: CaptureOptions = {}): Manifest {
  const errors: ProjectError[] = [];
  // Compiling the macros is only needed to render something: a load served by the parse cache
  // (every capture reused, no tests, macro names known) never builds the environment.
  let environment: JinjaEnvironment | undefined = options.jinja;
  const jinja = (): JinjaEnvironment =>
    (environment ??= new JinjaEnvironment(loaded.macros, { rootPackage: loaded.name, packages: loaded.packages?.map((p) => p.name), dispatch: loaded.dispatch }));
  // When anything is rendered, build it first, so a macro error is reported once, from its file.
  if (!options.macroNames || loaded.models.some((file) => !options.cached?.has(file.name))) jinja();
  const vars = resolveVars(loaded.vars, loaded.name, options.vars ?? {});
  const packageVars = new Map((loaded.packages ?? []).map((p) => [p.name, resolvePackageVars(loaded.vars, p.vars, p.name, options.vars ?? {})]));
  /** The project a node comes from: an installed package's name, or the root project's. */
  const packageOf = (file: { readonly package?: string }): string => file.package ?? loaded.name;
  // Jinja in yml values, rendered as dbt renders it (render-yml.ts); every capture depends on the vars it read.
  const ymlRendering = renderYmlValues(loaded, { jinja, cliVars: options.vars ?? {}, vars });
  const { project, varsRead: ymlVars } = ymlRendering;

  const seeds = new Map<string, SeedNode>();
  const disabledSeeds = new Set<string>();
  for (const file of project.seeds) {
    const properties = project.seedProperties.get(file.name);
    const config = mergeConfigs(
      ...(file.package === undefined
        ? [...folderConfigLayers(project.seedFolderConfigs, project.name, file.folders), nodeConfigLayer(project.seedFolderConfigs, project.name, file.folders, file.name) ?? {}]
        : packageConfigLayers(project.packages?.find((p) => p.name === file.package)?.seedFolderConfigs ?? {}, project.seedFolderConfigs, file.package, file.folders, file.name)),
      properties?.config ?? {},
    );
    // `enabled: false` (or a `+enabled` rendered from a var) removes the seed, as it removes a model.
    if (config.enabled === false) {
      disabledSeeds.add(file.name);
      continue;
    }
    const grants = grantsConfigProblem(config.grants);
    if (grants) {
      errors.push(new ProjectError(`seed '${file.name}': ${grants}`, { location: properties?.location ?? { file: file.path } }));
      continue;
    }
    const clash = seeds.get(file.name);
    if (clash) {
      errors.push(new ProjectError(`the name '${file.name}' is used twice: ${clash.file.path} and ${file.path}`, {
        location: { file: file.path },
        hint: `ref('${file.name}') could not tell them apart; rename or disable one of them`,
      }));
      continue;
    }
    seeds.set(file.name, {
      resourceType: 'seed',
      uniqueId: `seed.${packageOf(file)}.${file.name}`,
      name: file.name,
      alias: typeof config.alias === 'string' ? config.alias : file.name,
      schema: 'main', // set below, once the macros are known
      file,
      fqn: [packageOf(file), ...file.folders, file.name],
      config,
      settings: parseSeedSettings(config),
      properties,
    });
  }
  for (const name of project.seedProperties.keys()) {
    if (!seeds.has(name)) {
      const props = project.seedProperties.get(name)!;
      errors.push(new ProjectError(`properties describe seed '${name}' but there is no seeds/${name}.csv`, { location: props.location }));
    }
  }

  const sources = new Map<string, SourceNode>();
  const sourceConfigOf = projectSourceConfigs(project);
  /** Source tables with enabled: false (yml or the project file): not nodes, as in dbt; a model reading one is an error. */
  const disabledSources = new Set<string>();
  for (const table of project.sources) {
    const config = sourceConfigOf(table);
    const key = `${table.sourceName}.${table.tableName}`;
    if (config.enabled === false) {
      disabledSources.add(key);
      continue;
    }
    sources.set(key, {
      resourceType: 'source',
      uniqueId: `source.${packageOf(table)}.${key}`,
      name: key,
      alias: table.identifier,
      schema: project.target.customSchemas ? table.schema : 'main',
      table,
      fqn: [packageOf(table), table.sourceName, table.tableName],
      config,
      settings: parseSourceSettings(config),
    });
  }

  // Config before rendering: folder configs (merged once per folder), then yml.
  const folderConfigs = new Map<string, Record<string, unknown>>();
  const baseConfigs = new Map(project.models.map((file) => [file.name, baseModelConfig(project, file, folderConfigs)]));
  const context: CaptureContext = { jinja, vars, packageVars, sourceAlias: (s, t) => sources.get(`${s}.${t}`)?.alias ?? t, databasePath: project.databasePath, target: project.target, projectName: project.name, ...(options.staticCapture === false ? { staticCapture: false } : {}) };

  const captured: { file: (typeof project.models)[number]; refs: string[]; sources: [string, string][]; config: Record<string, unknown> }[] = [];
  /** Models that failed to render, by name -> unique id: their dependents are skipped, not "not found". */
  const renderFailed = new Map<string, string>();
  for (const file of project.models) {
    // A package's model is captured afresh each time (the cache follows the root project's vars only).
    const hit = file.package === undefined ? options.cached?.get(file.name) : undefined;
    if (hit) {
      captured.push({ file, refs: hit.refs, sources: hit.sources, config: hit.config });
      continue;
    }
    try {
      const record = withVarsRead(captureModel(file, baseConfigs.get(file.name)!, context), ymlVars);
      captured.push({ file, ...record });
      options.onCapture?.(file.name, record);
    } catch (err) {
      errors.push(err instanceof ProjectError ? err : new ProjectError(String(err), { location: { file: file.path } }));
      renderFailed.set(file.name, `model.${packageOf(file)}.${file.name}`);
    }
  }
  for (const name of project.modelProperties.keys()) {
    if (baseConfigs.has(name)) continue;
    const props = project.modelProperties.get(name)!;
    const where = `${props.location.file}${props.location.line ? `:${props.location.line}` : ''}`;
    const seed = seeds.get(name);
    // dbt warns about a patch that matches no model, and goes on; the entry's data tests still test what ref() names (a seed).
    if (seed && !seed.properties) {
      seeds.set(name, { ...seed, properties: { ...props, config: {} } });
      warnUser(`${where}: '${name}' is a seed, described under models: (as dbt does, its data tests run on the seed; its configs are ignored: describe it under seeds:)`);
      continue;
    }
    warnUser(`${where}: properties describe model '${name}', which does not exist: its description, configs, columns and tests apply to nothing.${didYouMeanSuffix(name, [...baseConfigs.keys()])}`);
  }

  const macroNames = options.macroNames ?? jinja().macroNames;
  const schemaOf = schemaNamer(project, jinja, macroNames, vars);
  for (const [name, seed] of seeds) seeds.set(name, { ...seed, schema: schemaOf({ name, resourceType: 'seed', path: seed.file.path, fqn: seed.fqn, config: seed.config }) });
  const strategyMacros = customStrategyNames(macroNames);
  const models = new Map<string, ModelNode>();
  const disabled = new Map<string, ModelNode>();
  for (const c of captured) {
    const config: Record<string, unknown> = { materialized: 'view', ...mergeConfigs(baseConfigs.get(c.file.name)!, c.config) };
    // Settings parsed once, here, for fresh and parse-cached captures alike (the cache stores captures, not nodes).
    let node: ModelNode = {
      resourceType: 'model',
      uniqueId: `model.${packageOf(c.file)}.${c.file.name}`,
      name: c.file.name,
      alias: typeof config.alias === 'string' ? config.alias : defaultModelAlias(c.file),
      schema: schemaOf({ name: c.file.name, resourceType: 'model', path: c.file.path, fqn: [packageOf(c.file), ...c.file.folders, ...modelFqnTail(c.file)], config }),
      file: c.file,
      fqn: [packageOf(c.file), ...c.file.folders, ...modelFqnTail(c.file)],
      config,
      settings: parseModelSettings(config),
      properties: project.modelProperties.get(c.file.name),
      refs: c.refs,
      sources: c.sources,
      dependsOn: [],
    };
    const problem = validateModelConfig(node, strategyMacros) ?? contractProblem(node);
    if (problem) errors.push(problem);
    // A foreign_key constraint's `to: ref(...)` is a dependency, as in dbt (the parent is built first).
    const fk = constraintDependencies(node.properties);
    if (fk.refs.length > 0 || fk.sources.length > 0) {
      node = { ...node, refs: [...new Set([...node.refs, ...fk.refs])], sources: [...node.sources, ...fk.sources.filter(([a, b]) => !node.sources.some(([x, y]) => x === a && y === b))] };
    }
    if (config.enabled === false) disabled.set(node.name, node);
    else models.set(node.name, node);
  }

  // Snapshots: rendered like models (refs, sources, config()); models may ref them.
  const snapshots = captureSnapshots({ project, context, schemaOf, refable: new Map<string, ManifestNode>([...models, ...seeds]), sources }, errors);
  // Resolve dependencies now that every node is known.
  const refNames = [...models.keys(), ...seeds.keys(), ...snapshots.keys()];
  for (const [name, node] of models) {
    const dependsOn: string[] = [];
    for (const ref of node.refs) {
      // Only an error needs the line (finding it for every ref costs at 10,000 models).
      const located = () => ({ file: node.file.path, line: findLine(node.file.rawSql, ref) });
      if (ref === name) {
        const location = located();
        errors.push(new ProjectError(`model '${name}' refers to itself with ref('${ref}')`, { location, hint: 'use {{ this }} to refer to the model\'s own table' }));
        continue;
      }
      const target = models.get(refModelKey(models, ref)) ?? seeds.get(ref) ?? snapshots.get(ref);
      if (target) dependsOn.push(target.uniqueId);
      else if (renderFailed.has(ref)) continue; // reported once, from the failing model; this one is skipped
      else if (unknownVersionError(models, ref, `model '${name}'`)) errors.push(unknownVersionError(models, ref, `model '${name}'`, { file: node.file.path, line: findLine(node.file.rawSql, ref.slice(0, ref.lastIndexOf('.v'))) })!);
      else if (disabled.has(ref) || disabledSeeds.has(ref)) errors.push(new ProjectError(`model '${name}' depends on a node named '${ref}' which is disabled`, { location: located() }));
      else errors.push(new ProjectError(`model '${name}' depends on a node named '${ref}' which was not found.${didYouMeanSuffix(ref, refNames)}`, { location: located() }));
    }
    for (const [s, t] of node.sources) {
      const source = sources.get(`${s}.${t}`);
      if (source) dependsOn.push(source.uniqueId);
      else if (disabledSources.has(`${s}.${t}`)) {
        errors.push(new ProjectError(`model '${name}' depends on a source named '${s}.${t}' which is disabled`, { location: { file: node.file.path, line: findLine(node.file.rawSql, t) } }));
      } else {
        errors.push(new ProjectError(`model '${name}' depends on a source named '${s}.${t}' which was not found.${didYouMeanSuffix(`${s}.${t}`, [...sources.keys()])}`, {
          location: { file: node.file.path, line: findLine(node.file.rawSql, t) },
        }));
      }
    }
    models.set(name, { ...node, dependsOn });
  }
  errors.push(...relationNameProblems(models.values(), seeds.values(), sources.values(), snapshots.values()));
  errors.push(...checkMicrobatchInputs(models.values(), new Map<string, ManifestNode>([...seeds.values(), ...sources.values(), ...models.values()].map((n) => [n.uniqueId, n]))));
  const tests = errors.length === 0 && declaresTests(project) ? captureTests({ project, jinja: jinja(), vars, packageVars, models, seeds, sources }, errors) : new Map<string, TestNode>();
  if (errors.length === 0) renderTestDescriptions(tests, project, { jinja, vars });
  const skips = skipsOfRenderFailures(new Map([...models].map(([name, node]) => [name, node.refs])), renderFailed);
  if (skips.length > 0) throw new RenderFailureErrors(errors, skips);
  const unitTests = (project.unitTests?.length ?? 0) > 0 ? captureUnitTests({ project, models, disabled, seeds, sources, snapshots }, errors) : new Map<string, UnitTestNode>();
  const analyses = (project.analyses?.length ?? 0) > 0 || (project.analysisProperties?.size ?? 0) > 0
    ? captureAnalyses({ project, context, models, disabledModels: disabled, seeds, disabledSeeds, snapshots, sources, disabledSources }, errors)
    : new Map<string, AnalysisNode>();
  if (errors.length === 1) throw errors[0]!;
  if (errors.length > 1) throw new ProjectErrors(errors);

  const nodes = new Map<string, ManifestNode>();
  for (const n of [...seeds.values(), ...sources.values(), ...models.values()]) nodes.set(n.uniqueId, n);
  const graphNodes: GraphNode[] = [...nodes.values()].map((n) => ({
    uniqueId: n.uniqueId,
    name: n.name,
    resourceType: n.resourceType,
    path: n.resourceType === 'model' ? n.file.path : n.resourceType === 'seed' ? n.file.path : n.table.location.file,
    fqn: n.fqn,
    tags: n.settings.tags,
    dependsOn: n.resourceType === 'model' ? n.dependsOn : [],
    config: n.config,
    packageName: n.fqn[0] ?? project.name,
    ...(n.resourceType === 'model' && n.file.version ? { version: n.file.version.v, latestVersion: n.file.version.latest } : {}),
  }));
  for (const n of snapshots.values()) {
    graphNodes.push({ uniqueId: n.uniqueId, name: n.name, resourceType: 'snapshot', path: n.file.path, fqn: n.fqn, tags: stringList(n.config.tags), dependsOn: n.dependsOn, config: n.config, packageName: project.name });
  }
  for (const t of tests.values()) {
    graphNodes.push({
      uniqueId: t.uniqueId, name: t.name, resourceType: 'test', path: t.path, fqn: t.fqn, tags: stringList(t.config.tags), dependsOn: t.dependsOn, config: t.config, packageName: t.fqn[0] ?? project.name,
      testType: t.testType, ...(t.testType === 'generic' ? { testName: t.testName } : {}),
    });
  }
  for (const u of unitTests.values()) {
    graphNodes.push({ uniqueId: u.uniqueId, name: u.name, resourceType: 'unit_test', path: u.path, fqn: u.fqn, tags: u.tags, dependsOn: u.dependsOn, config: u.config, packageName: project.name, testType: 'unit', testName: u.name });
  }
  if ((project.exposures?.length ?? 0) > 0) {
    const refable = new Map<string, ManifestNode | SnapshotNode>([...models, ...seeds]);
    for (const snapshot of snapshots.values()) refable.set(snapshot.name, snapshot);
    graphNodes.push(...exposureNodes(project.exposures!, project.name, refable, sources));
  }
  graphNodes.push(...analysisGraphNodes(analyses, project.name));
  // dbt's groups and model access, once every referencing node (exposures included) is known.
  const accessErrors = modelAccessProblems(project, models, graphNodes);
  if (accessErrors.length === 1) throw accessErrors[0]!;
  if (accessErrors.length > 1) throw new ProjectErrors(accessErrors);
  rememberYmlRendering(models, ymlRendering);
  return {
    project: loaded,
    get jinja() {
      return jinja();
    },
    macroNames,
    nodes,
    models,
    seeds,
    sources,
    disabled,
    graphNodes,
    vars,
    packageVars,
    tests,
    unitTests,
    snapshots,
    ...(analyses.size > 0 ? { analyses } : {}),
    docs: new Map((project.docsBlocks ?? []).map((b) => [b.name, b])),
  };
}

/** Whether the project declares any data test (in property files or as tests/*.sql). */
function declaresTests(project: Project): boolean {
  const withTests = (p: { tests?: readonly unknown[]; columns?: readonly { tests?: readonly unknown[] }[] }) =>
    (p.tests?.length ?? 0) > 0 || (p.columns ?? []).some((c) => (c.tests?.length ?? 0) > 0);
  return project.singularTests.length > 0
    || [...project.modelProperties.values()].some(withTests)
    || [...project.seedProperties.values()].some(withTests)
    || project.sources.some(withTests);
}

/** A capture that also depends on `names` (the vars the yml values read): the parse cache and withVars follow them. */
function withVarsRead(capture: ModelCapture, names: readonly string[]): ModelCapture {
  const missing = names.filter((name) => !capture.vars?.includes(name));
  return missing.length === 0 ? capture : { ...capture, vars: [...(capture.vars ?? []), ...missing] };
}

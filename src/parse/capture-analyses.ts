import { folderConfigLayers, nodeConfigLayer } from '../config/folder-config.js';
import { mergeConfigs } from '../config/merge-configs.js';
import { parseModelSettings } from '../config/model-settings.js';
import type { AnalysisNode, ModelNode, SeedNode, SnapshotNode, SourceNode } from '../compile/manifest.js';
import { findLine } from '../compile/find-line.js';
import { refModelKey } from '../compile/versioned-ref.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { warnUser } from '../errors/user-warning.js';
import type { GraphNode } from '../graph/graph-node.js';
import type { ModelFile, Project } from '../project/project.js';
import { captureModel, type CaptureContext } from './capture-model.js';

export interface AnalysisInputs {
  readonly project: Project;
  readonly context: CaptureContext;
  readonly models: ReadonlyMap<string, ModelNode>;
  readonly disabledModels: ReadonlyMap<string, ModelNode>;
  readonly seeds: ReadonlyMap<string, SeedNode>;
  readonly disabledSeeds: ReadonlySet<string>;
  readonly snapshots: ReadonlyMap<string, SnapshotNode>;
  readonly sources: ReadonlyMap<string, SourceNode>;
  readonly disabledSources: ReadonlySet<string>;
}

/**
 * The project file's layers of an analysis's config. dbt reads analyses'
 * project configs from `models:` with the analysis's fqn (so `models:
 * +enabled: false` reaches them, folder configs under `models:` do not: the
 * fqn's second part is `analysis`), and from an `analyses:` block once the
 * project sets the require_analyses_project_level_config flag.
 */
function projectLayers(project: Project, file: ModelFile): Record<string, unknown>[] {
  // An installed package's analysis takes no models: config, the root's or its own (dbt-core #15415: a
  // package's models disabled must not hide the analysis's refs); under the flag, the root's analyses: <package>:.
  if (file.package !== undefined) {
    if (project.flags?.require_analyses_project_level_config !== true) return [];
    const tree = project.analysisFolderConfigs ?? {};
    return [...folderConfigLayers(tree, file.package, file.folders, true), nodeConfigLayer(tree, file.package, file.folders, file.name, true) ?? {}];
  }
  if (project.flags?.require_analyses_project_level_config === true) {
    const tree = project.analysisFolderConfigs ?? {};
    return [...folderConfigLayers(tree, project.name, file.folders), nodeConfigLayer(tree, project.name, file.folders, file.name) ?? {}];
  }
  const path = ['analysis', ...file.folders];
  return [...folderConfigLayers(project.modelFolderConfigs, project.name, path), nodeConfigLayer(project.modelFolderConfigs, project.name, path, file.name) ?? {}];
}

/**
 * dbt's analyses: each file under analysis-paths rendered once without a
 * warehouse (as a model's pass 1) for its ref(), source() and config()
 * calls, its config merged from the project file, its yml entry and
 * config(); a disabled one is left out. Its refs resolve as a model's do
 * (the latest version of a versioned model; an error naming the closest name
 * or saying the node is disabled), into analysis.<project>.<name> nodes.
 */
export function captureAnalyses(inputs: AnalysisInputs, errors: ProjectError[]): Map<string, AnalysisNode> {
  const { project, context, models, seeds, snapshots, sources } = inputs;
  const out = new Map<string, AnalysisNode>();
  for (const file of project.analyses ?? []) {
    const properties = project.analysisProperties?.get(file.name);
    const base = mergeConfigs(...projectLayers(project, file), properties?.config ?? {});
    let capture;
    try {
      capture = captureModel(file, base, context);
    } catch (err) {
      errors.push(err instanceof ProjectError ? err : new ProjectError(String(err), { location: { file: file.path } }));
      continue;
    }
    const config = mergeConfigs(base, capture.config);
    if (config.enabled === false) continue;
    const where = `analysis '${file.name}'`;
    const dependsOn: string[] = [];
    for (const ref of capture.refs) {
      const located = () => ({ file: file.path, line: findLine(file.rawSql, ref) });
      const target = models.get(refModelKey(models, ref)) ?? seeds.get(ref) ?? snapshots.get(ref);
      if (target) dependsOn.push(target.uniqueId);
      else if (inputs.disabledModels.has(ref) || inputs.disabledSeeds.has(ref)) errors.push(new ProjectError(`${where} depends on a node named '${ref}' which is disabled`, { location: located() }));
      else errors.push(new ProjectError(`${where} depends on a node named '${ref}' which was not found.${didYouMeanSuffix(ref, [...models.keys(), ...seeds.keys(), ...snapshots.keys()])}`, { location: located() }));
    }
    for (const [s, t] of capture.sources) {
      const source = sources.get(`${s}.${t}`);
      const location = { file: file.path, line: findLine(file.rawSql, t) };
      if (source) dependsOn.push(source.uniqueId);
      else if (inputs.disabledSources.has(`${s}.${t}`)) errors.push(new ProjectError(`${where} depends on a source named '${s}.${t}' which is disabled`, { location }));
      else errors.push(new ProjectError(`${where} depends on a source named '${s}.${t}' which was not found.${didYouMeanSuffix(`${s}.${t}`, [...sources.keys()])}`, { location }));
    }
    const pkg = file.package ?? project.name;
    const clash = out.get(file.name);
    if (clash) {
      errors.push(new ProjectError(`two analyses are named '${file.name}': ${clash.file.path} and ${file.path}`, { location: { file: file.path }, hint: 'mini-dbt needs analysis names unique across the project and its packages; rename one of them' }));
      continue;
    }
    out.set(file.name, {
      resourceType: 'analysis',
      uniqueId: `analysis.${pkg}.${file.name}`,
      name: file.name,
      alias: file.name,
      schema: 'main',
      file,
      fqn: [pkg, 'analysis', ...file.folders, file.name],
      config: { enabled: true, materialized: 'view', ...config },
      // Tags as the typed config parser reads them (a string or a list; folder tags added, as for models).
      tags: parseModelSettings({ ...config, materialized: 'view' }).tags,
      ...(properties ? { properties } : {}),
      refs: capture.refs,
      sources: capture.sources,
      dependsOn: [...new Set(dependsOn)],
    });
  }
  for (const [name, props] of project.analysisProperties ?? []) {
    // dbt warns about a patch that matches no analysis, and goes on (as for models).
    if (!(project.analyses ?? []).some((f) => f.name === name)) {
      const where = `${props.location.file}${props.location.line ? `:${props.location.line}` : ''}`;
      warnUser(`${where}: properties describe analysis '${name}', which does not exist${(project.analyses ?? []).length === 0 ? ' (the project file names no analysis-paths)' : ''}: they apply to nothing.`);
    }
  }
  return out;
}

/** The analyses as graph nodes: listed and selected (resource_type:analysis), compiled, never run. */
export function analysisGraphNodes(analyses: ReadonlyMap<string, AnalysisNode>, projectName: string): GraphNode[] {
  return [...analyses.values()].map((a) => ({
    uniqueId: a.uniqueId,
    name: a.name,
    resourceType: 'analysis',
    path: a.file.path,
    fqn: a.fqn,
    tags: a.tags,
    dependsOn: a.dependsOn,
    config: a.config,
    packageName: a.fqn[0] ?? projectName,
  }));
}

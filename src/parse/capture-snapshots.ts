import { refModelKey } from '../compile/versioned-ref.js';
import { folderConfigLayers } from '../config/folder-config.js';
import { mergeConfigs } from '../config/merge-configs.js';
import { parseSnapshotSettings } from '../config/snapshot-settings.js';
import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { findLine } from '../compile/find-line.js';
import type { ManifestNode, SnapshotNode } from '../compile/manifest.js';
import type { ModelFile, Project } from '../project/project.js';
import { captureModel, type CaptureContext } from './capture-model.js';

export interface SnapshotInputs {
  readonly project: Project;
  readonly context: CaptureContext;
  readonly schemaOf: (node: { name: string; resourceType: 'model' | 'seed'; path: string; fqn: readonly string[]; config: Readonly<Record<string, unknown>> }) => string;
  /** What a snapshot may ref (models and seeds by name) and read (sources by 'source.table'). */
  readonly refable: ReadonlyMap<string, ManifestNode>;
  readonly sources: ReadonlyMap<string, ManifestNode>;
}

/** Pass 1 for snapshots: render each body to capture its refs, sources and config(); config checked (E127-E131). */
export function captureSnapshots(inputs: SnapshotInputs, errors: ProjectError[]): Map<string, SnapshotNode> {
  const { project } = inputs;
  const out = new Map<string, SnapshotNode>();
  for (const def of project.snapshots ?? []) {
    const location = { file: def.path, line: def.line };
    try {
      if (inputs.refable.has(def.name)) throw new ProjectError(`the name '${def.name}' is used by a snapshot and by a model or seed`, { location, hint: "ref() could not tell them apart; rename one of them" });
      const file: ModelFile = { name: def.name, path: def.path, absPath: def.absPath, rawSql: def.rawSql, folders: def.folders };
      const base = mergeConfigs(...folderConfigLayers(project.snapshotFolderConfigs ?? {}, project.name, def.folders), def.config);
      const captured = captureModel(file, base, inputs.context);
      const config: Record<string, unknown> = { ...mergeConfigs(base, captured.config), materialized: 'snapshot' };
      // A config problem points at the block's config() call when it has one.
      const configLine = findLine(def.rawSql, 'config(');
      const settings = parseSnapshotSettings(def.name, config, configLine === undefined ? location : { file: def.path, line: def.bodyLineOffset + configLine });
      const fqn = [project.name, ...def.folders, def.name];
      const targetSchema = typeof config.target_schema === 'string' && config.target_schema !== '' ? config.target_schema : undefined;
      const schema = !project.target.customSchemas ? 'main' : targetSchema ?? inputs.schemaOf({ name: def.name, resourceType: 'model', path: def.path, fqn, config: { ...config, schema: config.schema } });
      const dependsOn: string[] = [];
      for (const ref of captured.refs) {
        const target = inputs.refable.get(refModelKey(inputs.refable, ref));
        if (target) dependsOn.push(target.uniqueId);
        else errors.push(new ProjectError(`snapshot '${def.name}' depends on a node named '${ref}' which was not found.${didYouMeanSuffix(ref, [...inputs.refable.keys()])}`, { location }));
      }
      for (const [s, t] of captured.sources) {
        const source = inputs.sources.get(`${s}.${t}`);
        if (source) dependsOn.push(source.uniqueId);
        else errors.push(new ProjectError(`snapshot '${def.name}' depends on a source named '${s}.${t}' which was not found.${didYouMeanSuffix(`${s}.${t}`, [...inputs.sources.keys()])}`, { location }));
      }
      out.set(def.name, {
        resourceType: 'snapshot',
        uniqueId: `snapshot.${project.name}.${def.name}`,
        name: def.name,
        alias: typeof config.alias === 'string' ? config.alias : def.name,
        schema,
        definition: def,
        file,
        fqn,
        config,
        settings,
        refs: captured.refs,
        sources: captured.sources,
        dependsOn,
      });
    } catch (err) {
      errors.push(err instanceof ProjectError ? (err.location.file ? err : new ProjectError(err.message, { location, hint: err.hint })) : new ProjectError(String(err), { location }));
    }
  }
  return out;
}

import { ProjectError } from '../errors/project-error.js';
import type { ModelFile, NodeProperties } from './project.js';
import { sameVersion, versionFileStem } from './model-version.js';

/**
 * The model files with each version of a versioned model found, as dbt
 * finds it: the file named by `defined_in`, else `<name>_v<v>`; the latest
 * version may also be the plain `<name>` file. That file becomes the
 * version's node (named `<name>.v<v>`, carrying its version). A version
 * with no file is an error at its yml line (E208), naming the file it looked for.
 */
export function withVersionedModelFiles(models: readonly ModelFile[], properties: ReadonlyMap<string, NodeProperties>): ModelFile[] {
  const versioned = [...properties.values()].filter((p) => p.version !== undefined);
  if (versioned.length === 0) return [...models];
  const byName = new Map(models.map((m, i) => [m.name, i]));
  const out = [...models];
  const taken = new Map<number, string>();
  for (const props of versioned) {
    const version = props.version!;
    const stem = versionFileStem(version);
    let at = byName.get(stem);
    if (at === undefined && version.definedIn === undefined && sameVersion(version.v, version.latest)) at = byName.get(version.modelName);
    if (at === undefined) {
      throw new ProjectError(`model '${version.modelName}' version ${String(version.v)} has no file: no model file is named ${stem}.sql${version.definedIn === undefined && sameVersion(version.v, version.latest) ? ` (nor ${version.modelName}.sql, which the latest version may use)` : ''}`, {
        location: version.location,
        hint: version.definedIn === undefined ? `name the file ${stem}.sql, or say which file holds it with defined_in:` : 'defined_in names a model file without its extension',
      });
    }
    const other = taken.get(at);
    if (other !== undefined) {
      throw new ProjectError(`versions ${other} and ${props.name} of model '${version.modelName}' are both defined in ${out[at]!.path}`, {
        location: version.location,
      });
    }
    taken.set(at, props.name);
    out[at] = { ...out[at]!, name: props.name, version };
  }
  return out;
}

import { ProjectError } from '../errors/project-error.js';
import type { LoadedProperties } from './load-properties.js';
import type { PackageProject } from './load-packages.js';
import type { NodeProperties } from './project.js';

/**
 * The root project's yml properties with every installed package's added:
 * models, seeds and sources of a package are described in its own yml files.
 * A name described by two projects is refused (node names are unique across
 * the project and its packages in mini-dbt).
 */
export function withPackageProperties(root: LoadedProperties, packages: readonly PackageProject[]): LoadedProperties {
  if (packages.length === 0) return root;
  const models = new Map(root.models);
  const seeds = new Map(root.seeds);
  const sources = [...root.sources];
  const sourceKeys = new Map(sources.map((s) => [`${s.sourceName}.${s.tableName}`, s.location.file]));
  for (const pkg of packages) {
    addAll(models, pkg.properties.models, 'model');
    addAll(seeds, pkg.properties.seeds, 'seed');
    for (const table of pkg.properties.sources) {
      const key = `${table.sourceName}.${table.tableName}`;
      const other = sourceKeys.get(key);
      if (other !== undefined) {
        throw new ProjectError(`source '${key}' is declared twice: in ${other} and ${table.location.file}`, {
          location: table.location,
          hint: 'mini-dbt needs source names unique across the project and its packages; rename or disable one',
        });
      }
      sourceKeys.set(key, table.location.file);
      sources.push(table);
    }
  }
  const exposures = [...root.exposures, ...packages.flatMap((pkg) => pkg.properties.exposures.map((e) => ({ ...e, package: pkg.name, folders: e.location.file.slice(pkg.path.length + 1).split('/').slice(1, -1) })))];
  const groups = [...root.groups, ...packages.flatMap((pkg) => pkg.properties.groups.map((g) => ({ ...g, package: pkg.name })))];
  return { ...root, models, seeds, sources, exposures, groups };
}

function addAll(into: Map<string, NodeProperties>, from: ReadonlyMap<string, NodeProperties>, kind: string): void {
  for (const [name, props] of from) {
    const other = into.get(name);
    if (other) {
      throw new ProjectError(`${kind} '${name}' is described twice: in ${other.location.file} and ${props.location.file}`, { location: props.location });
    }
    into.set(name, props);
  }
}

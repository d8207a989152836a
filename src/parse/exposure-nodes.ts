import { refModelKey } from '../compile/versioned-ref.js';
import { versionKey } from '../project/model-version.js';
import type { ManifestNode, SnapshotNode, SourceNode } from '../compile/manifest.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import type { GraphNode } from '../graph/graph-node.js';
import type { ExposureDefinition } from '../project/exposure-definition.js';

const REF = /^\s*ref\(\s*(['"])([^'"]+)\1\s*(?:,\s*(['"])([^'"]+)\3\s*)?(?:,\s*v(?:ersion)?\s*=\s*['"]?([^)'"\s]*)['"]?\s*)?\)\s*$/;
const SOURCE = /^\s*source\(\s*(['"])([^'"]+)\1\s*,\s*(['"])([^'"]+)\3\s*\)\s*$/;

/**
 * The project's exposures as graph nodes (exposure.<project>.<name>), each
 * depending on what its depends_on names: ref('model') (or ref('package',
 * 'model')), source('source', 'table'). They are listed and selected
 * (`exposure:name`, `+exposure:name` for everything they read), never run. A
 * name that is not a node is an error naming the exposure, its file and the
 * closest name, as dbt refuses it at parse time.
 */
export function exposureNodes(
  exposures: readonly ExposureDefinition[], projectName: string,
  refable: ReadonlyMap<string, ManifestNode | SnapshotNode>, sources: ReadonlyMap<string, SourceNode>,
): GraphNode[] {
  const out: GraphNode[] = [];
  for (const exposure of exposures) {
    if (!exposure.enabled) continue;
    const dependsOn: string[] = [];
    for (const entry of exposure.dependsOn) {
      const ref = REF.exec(entry);
      const source = ref ? null : SOURCE.exec(entry);
      if (ref) {
        // ref('m', v=1) names the version `m.v1`; ref('m') a versioned model's latest version.
        const name = ref[5] ? versionKey(ref[4] ?? ref[2]!, ref[5]) : ref[4] ?? ref[2]!;
        const node = refable.get(refModelKey(refable, name));
        if (!node) {
          throw new ProjectError(`exposure '${exposure.name}' depends on a node named '${name}' which was not found.${didYouMeanSuffix(name, [...refable.keys()])}`, { location: exposure.location });
        }
        dependsOn.push(node.uniqueId);
      } else if (source) {
        const key = `${source[2]}.${source[4]}`;
        const node = sources.get(key);
        if (!node) {
          throw new ProjectError(`exposure '${exposure.name}' depends on a source named '${key}' which was not found.${didYouMeanSuffix(key, [...sources.keys()])}`, { location: exposure.location });
        }
        dependsOn.push(node.uniqueId);
      } else {
        throw new ProjectError(`exposure '${exposure.name}': depends_on entry "${entry}" is not ref('...') or source('...', '...')`, { location: exposure.location });
      }
    }
    const pkg = exposure.package ?? projectName;
    out.push({
      uniqueId: exposureId(exposure, projectName),
      name: exposure.name,
      resourceType: 'exposure',
      path: exposure.location.file,
      fqn: [pkg, ...exposure.folders, exposure.name],
      tags: exposure.tags,
      dependsOn: [...new Set(dependsOn)],
      config: { enabled: true, tags: exposure.tags, meta: exposure.meta },
      packageName: pkg,
    });
  }
  return out;
}

/** exposure.<package>.<name>: the root project's, or the installed package's that declares it. */
export function exposureId(exposure: ExposureDefinition, projectName: string): string {
  return `exposure.${exposure.package ?? projectName}.${exposure.name}`;
}

import type { ModelNode } from '../compile/manifest.js';
import { findLine } from '../compile/find-line.js';
import { ProjectError } from '../errors/project-error.js';
import type { GraphNode } from '../graph/graph-node.js';
import type { Project } from '../project/project.js';

/** dbt's model access levels; a model without `access` is protected. */
export const ACCESS_LEVELS = ['private', 'protected', 'public'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** A model's access (its `access` config; protected when unset, as in dbt). */
export function modelAccess(config: Readonly<Record<string, unknown>>): Access {
  return (ACCESS_LEVELS as readonly unknown[]).includes(config.access) ? config.access as Access : 'protected';
}

/** The nodes whose refs dbt checks against access (its SQL operations aside; data tests are the model's own). */
const REFERRERS: ReadonlySet<string> = new Set(['model', 'snapshot', 'exposure', 'analysis']);

/**
 * dbt's load-time rules for groups and model access, in its words:
 * - E215: two groups with one name;
 * - E216: an `access` that is not private, protected or public, or a public ephemeral model (InvalidAccessTypeError);
 * - E217: a `group` no properties file declares;
 * - E218: a ref to a private model from outside its group (a node without a group included), or to a
 *   protected model of a package whose project file sets `restrict-access: true` from another project
 *   (DbtReferenceError).
 */
export function modelAccessProblems(project: Project, models: ReadonlyMap<string, ModelNode>, graphNodes: readonly GraphNode[]): ProjectError[] {
  const groups = project.groups ?? [];
  const restricted = new Set((project.packages ?? []).filter((p) => p.restrictAccess).map((p) => p.name));
  const anyAccessConfig = [...models.values()].some((m) => m.config.access !== undefined || m.config.group !== undefined);
  if (groups.length === 0 && !anyAccessConfig && restricted.size === 0) return [];
  const problems: ProjectError[] = [];
  const seen = new Map<string, (typeof groups)[number]>();
  for (const group of groups) {
    const other = seen.get(group.name);
    if (other) problems.push(new ProjectError(`dbt found two groups with the name '${group.name}' (also in ${other.location.file}:${other.location.line ?? 1})`, { location: group.location }));
    else seen.set(group.name, group);
  }
  const byId = new Map<string, ModelNode>();
  for (const model of models.values()) {
    byId.set(model.uniqueId, model);
    const access = model.config.access;
    const at = { file: model.properties?.location.file ?? model.file.path, line: model.properties?.lineOf?.(['access']) ?? model.properties?.location.line };
    if (access !== undefined && !(ACCESS_LEVELS as readonly unknown[]).includes(access)) {
      problems.push(new ProjectError(`Node ${model.uniqueId} has an invalid value (${String(access)}) for the access field`, { location: at, hint: `access is one of ${ACCESS_LEVELS.join(', ')}` }));
    } else if (access === 'public' && model.settings.materialized === 'ephemeral') {
      problems.push(new ProjectError(`Node ${model.uniqueId} has an invalid value (public) for the access field with 'ephemeral' materialization`, { location: at, hint: 'an ephemeral model is no relation another project could read: make it protected or private, or materialize it' }));
    }
    const group = model.config.group;
    if (group !== undefined && group !== null && !seen.has(String(group))) {
      problems.push(new ProjectError(`Invalid group '${String(group)}', expected one of [${[...seen.keys()].sort().map((g) => `'${g}'`).join(', ')}]`, {
        location: { file: model.properties?.location.file ?? model.file.path, line: model.properties?.lineOf?.(['group']) ?? model.properties?.location.line },
        hint: `model ${model.uniqueId} names it; declare it in a properties file: groups: [{name: ${String(group)}, owner: {name: ...}}]`,
      }));
    }
  }
  if (problems.length > 0) return problems;
  const guarded = [...byId.values()].some((m) => modelAccess(m.config) === 'private' || restricted.has(m.fqn[0] ?? project.name));
  if (!guarded) return [];
  for (const node of graphNodes) {
    if (!REFERRERS.has(node.resourceType)) continue;
    for (const parentId of node.dependsOn) {
      const target = byId.get(parentId);
      if (!target) continue;
      const access = modelAccess(target.config);
      const targetPackage = target.fqn[0] ?? project.name;
      const targetGroup = target.config.group === undefined || target.config.group === null ? undefined : String(target.config.group);
      const ownGroup = node.config?.group === undefined || node.config.group === null ? undefined : String(node.config.group);
      const privateRef = access === 'private' && (ownGroup === undefined || ownGroup !== targetGroup || (restricted.has(targetPackage) && node.packageName !== targetPackage));
      const protectedRef = access === 'protected' && node.packageName !== targetPackage && restricted.has(targetPackage);
      if (!privateRef && !protectedRef) continue;
      const scope = privateRef ? `private to the '${targetGroup ?? ''}' group` : `protected to the '${targetPackage}' package`;
      problems.push(new ProjectError(`Node ${node.uniqueId} attempted to reference node ${target.uniqueId}, which is not allowed because the referenced node is ${scope}.`, {
        location: referrerLocation(node, target, models),
        hint: privateRef
          ? `put ${node.uniqueId} in the '${targetGroup ?? ''}' group, or make ${target.name} protected or public`
          : `make ${target.name} public in its package, or reference a public model`,
      }));
    }
  }
  return problems;
}

/** Where the ref is: the referencing model's line naming the target, else its file. */
function referrerLocation(node: GraphNode, target: ModelNode, models: ReadonlyMap<string, ModelNode>): { file: string; line?: number } {
  const model = node.resourceType === 'model' ? [...models.values()].find((m) => m.uniqueId === node.uniqueId) : undefined;
  if (!model) return { file: node.path };
  const name = target.file.version ? target.name.slice(0, target.name.lastIndexOf('.v')) : target.name;
  return { file: model.file.path, line: findLine(model.file.rawSql, name) };
}

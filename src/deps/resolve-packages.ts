import { ProjectError } from '../errors/project-error.js';
import type { PackageSpec } from './package-spec.js';
import type { PinnedPackage } from './pinned-package.js';
import type { PinContext } from './pin-context.js';
import { pinGit } from './pin-git.js';
import { pinHub } from './pin-hub.js';
import { pinLocal } from './pin-local.js';

/** The package a spec names, whatever asks for it: the hub name, the git URL (with or without .git) and subdirectory, the path. */
function packageKey(spec: PackageSpec): string {
  if (spec.kind === 'hub') return `hub:${spec.package}`;
  if (spec.kind === 'local') return `local:${spec.local}`;
  return `git:${spec.git.replace(/\.git$/, '')}/${spec.subdirectory ?? ''}`;
}

/** What a pin depends on: the set of versions (and prerelease flags) asked for a hub package, of revisions for a git one. */
function pinInputs(reqs: readonly PackageSpec[]): unknown {
  const set = (items: readonly string[]) => [...new Set(items)].sort();
  return set(reqs.flatMap((r) => {
    if (r.kind === 'hub') return [...r.versions, ...(r.installPrerelease ? ['+prerelease'] : [])];
    if (r.kind === 'git') return [r.revision ?? '', ...(r.warnUnpinned ? [] : ['-warn'])];
    return [];
  }));
}

/**
 * Resolve the root's packages and, round after round, the packages they declare, as dbt's
 * resolver does: every requirement on a package joins the earlier ones (hub version ranges
 * intersect, git revisions must agree), the package is pinned again with all of them, and the
 * packages it declares are the next round, until a round brings nothing new.
 */
export async function resolvePackages(root: readonly PackageSpec[], ctx: PinContext, rootName: string): Promise<PinnedPackage[]> {
  const requirements = new Map<string, PackageSpec[]>();
  const pins = new Map<string, Promise<PinnedPackage>>();
  const seen = new Set<string>();
  const pin = (reqs: readonly PackageSpec[]): Promise<PinnedPackage> => {
    const first = reqs[0]!;
    const identity = `${packageKey(first)} ${JSON.stringify(pinInputs(reqs))}`;
    let found = pins.get(identity);
    if (!found) {
      found = first.kind === 'hub'
        ? pinHub(reqs as Extract<PackageSpec, { kind: 'hub' }>[], ctx)
        : Promise.resolve().then(() => (first.kind === 'git' ? pinGit(reqs as Extract<PackageSpec, { kind: 'git' }>[], ctx) : pinLocal(first, ctx)));
      pins.set(identity, found);
    }
    return found;
  };
  let pending: readonly PackageSpec[] = root;
  while (pending.length > 0) {
    const next: PackageSpec[] = [];
    for (const spec of pending) {
      const key = packageKey(spec);
      const requirement = `${key} ${JSON.stringify(spec.entry)} ${spec.requiredBy.label}`;
      if (seen.has(requirement)) continue;
      seen.add(requirement);
      const reqs = [...(requirements.get(key) ?? []), spec];
      requirements.set(key, reqs);
      next.push(...(await pin(reqs)).deps);
    }
    pending = next;
  }
  const resolved: PinnedPackage[] = [];
  for (const reqs of requirements.values()) resolved.push(await pin(reqs));
  const names = new Set<string>();
  for (const p of resolved) {
    if (p.name === rootName) {
      throw new ProjectError(`Found a dependency with the same name as the root project "${p.name}". Package names must be unique in a project. Please rename one of these packages.`);
    }
    if (names.has(p.name)) {
      throw new ProjectError(`Found duplicate project "${p.name}". This occurs when a dependency has the same project name as some other dependency.`);
    }
    names.add(p.name);
  }
  return resolved;
}

import { join } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { warnUser } from '../errors/user-warning.js';
import { gitCheckout } from './git-checkout.js';
import type { GitSpec } from './package-spec.js';
import { packageProjectName, readDeclaredPackages } from './packages-file.js';
import type { PinContext } from './pin-context.js';
import type { PinnedPackage } from './pinned-package.js';

let checkouts = 0;

/** A git package at its one revision, cloned into the downloads folder. */
export function pinGit(reqs: readonly GitSpec[], ctx: PinContext): PinnedPackage {
  const spec = reqs[0]!;
  const revisions = [...new Set(reqs.flatMap((r) => (r.revision === undefined ? [] : [r.revision])))];
  const shown = spec.subdirectory ? `${spec.git}/${spec.subdirectory}` : spec.git;
  if (revisions.length > 1) {
    throw new ProjectError(`git dependencies should contain exactly one version. ${shown} contains: {${revisions.map((r) => `'${r}'`).join(', ')}}`, {
      hint: `the package is required at ${reqs.filter((r) => r.revision).map((r) => `${r.revision} by ${r.requiredBy.label}`).join(' and at ')}`,
    });
  }
  const revision = revisions[0] ?? 'HEAD';
  if ((revision === 'HEAD' || revision === 'main' || revision === 'master') && reqs.every((r) => r.warnUnpinned)) {
    const how = revision === 'HEAD' ? 'not pinned, using HEAD (default branch)' : `pinned to the "${revision}" branch`;
    warnUser(`The git package "${spec.git}" is ${how}. This can introduce breaking changes into your project without warning! Pin a tag or a commit in revision: (or set warn-unpinned: false)`, 'DepsUnpinned');
  }
  const checkout = gitCheckout(spec.cloneUrl, revisions[0], spec.subdirectory, join(ctx.downloads, `git-${++checkouts}`), spec.git);
  const where = `${shown}@${checkout.sha.slice(0, 7)}`;
  return {
    kind: 'git',
    name: packageProjectName(checkout.root, where),
    git: spec.git,
    revision: checkout.sha,
    requested: revision,
    subdirectory: spec.subdirectory,
    root: checkout.root,
    deps: readDeclaredPackages(checkout.root, where, where).specs,
  };
}

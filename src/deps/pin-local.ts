import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import type { LocalSpec } from './package-spec.js';
import { packageProjectName, readDeclaredPackages } from './packages-file.js';
import type { PinContext } from './pin-context.js';
import type { PinnedPackage } from './pinned-package.js';

/** A local package: a folder relative to the root project (as dbt resolves every local path). */
export function pinLocal(spec: LocalSpec, ctx: PinContext): PinnedPackage {
  const path = isAbsolute(spec.local) ? spec.local : resolve(ctx.projectRoot, spec.local);
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new ProjectError(`local package '${spec.local}' does not exist: no folder ${path}`, {
      location: { file: spec.requiredBy.file, line: spec.requiredBy.line },
      hint: 'local: is a folder path relative to the project folder',
    });
  }
  return { kind: 'local', name: packageProjectName(path, spec.local), local: spec.local, path, deps: readDeclaredPackages(path, spec.local, spec.local).specs };
}

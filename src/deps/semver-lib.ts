import { createRequire } from 'node:module';

let lib: typeof import('semver') | undefined;

/**
 * The semver package, loaded on first use: every command's project load
 * reads the packages file through src/deps, and only resolving or checking a
 * version needs semver.
 */
export function semverLib(): typeof import('semver') {
  return (lib ??= createRequire(import.meta.url)('semver') as typeof import('semver'));
}

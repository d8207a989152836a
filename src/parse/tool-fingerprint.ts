import { hash as oneShotHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let fingerprint: string | undefined;

/**
 * The tool's own build, an input of every cache of parse results: every
 * module file's size and mtime (the CLI's cli.cjs included; its V8 code
 * caches are not code), and, unbundled, nunjucks' version (the bundles
 * hold their own copy of it). The bundled CLI (dist/bundle/)
 * is all the code it runs, so only that folder is walked (not the rest of
 * dist/: a few dozen stats instead of hundreds on every cold start);
 * unbundled, the whole compiled tree.
 */
export function toolFingerprint(): string {
  fingerprint ??= oneShotHash('sha256', toolInputs(), 'hex');
  return fingerprint;
}

let inputs: string | undefined;

/** What the fingerprint hashes (the bin's ls answer cache hashes it its own way: ls-answer-cache.ts). */
export function toolInputs(): string {
  if (inputs !== undefined) return inputs;
  const here = dirname(fileURLToPath(import.meta.url));
  const root = basename(here) === 'bundle' ? here : dirname(here);
  const parts: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(c?js|ts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const s = statSync(path);
        parts.push(`${path}:${s.size}:${s.mtimeMs}`);
      }
    }
  };
  walk(root);
  // Bundled, nunjucks is part of the bundle's files; unbundled, it is read from node_modules.
  if (root !== here) {
    try {
      parts.push(`nunjucks:${(createRequire(import.meta.url)('nunjucks/package.json') as { version?: string }).version}`);
    } catch {
      parts.push('nunjucks:?');
    }
  }
  inputs = parts.join('\n');
  return inputs;
}

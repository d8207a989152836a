import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { feedToCsv, type FeedRow } from '../../src/feed/generate-feed.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** The CLI as it ships: the bundle that package.json's bin points at. */
export const CLI = join(REPO_ROOT, 'dist/bundle/main.cjs');

/**
 * Copy the Brightcart example (project.yml, models, macros, seeds) into a
 * fresh temp dir; optionally replace the feed. Returns the project dir.
 */
export function exampleProject(feed?: readonly FeedRow[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-example-'));
  for (const entry of ['project.yml', 'models', 'macros', 'seeds']) {
    cpSync(join(REPO_ROOT, entry), join(dir, entry), { recursive: true });
  }
  if (feed) writeFileSync(join(dir, 'seeds', 'raw_orders.csv'), feedToCsv(feed));
  return dir;
}

/** Write a small project from a map of relative path -> file text. */
export function writeProject(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-project-'));
  for (const [path, text] of Object.entries(files)) {
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return dir;
}


import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, writeProject } from '../support/example-project.js';
import { cliEnv } from '../support/run-cli.js';

/**
 * The bin (src/cli/cli-loader.ts) runs the CommonJS bundle through V8's code
 * cache: each command's first run writes cli.cjs.<command>.v8cache next to it,
 * a later run reads it, a cache V8 rejects (corrupt, another build) is written
 * again, and a folder that cannot be written runs without one. Checked on a
 * copy of the two files, so the repository's own caches are left alone.
 */
describe("the bin's code cache", () => {
  // Named `bundle` as dist/bundle is: the parse cache fingerprints the tool by walking its bin's folder.
  const bin = join(mkdtempSync(join(tmpdir(), 'mini-dbt-bin-')), 'bundle');
  mkdirSync(bin);
  for (const file of ['main.cjs', 'cli.cjs']) copyFileSync(join(REPO_ROOT, 'dist/bundle', file), join(bin, file));
  writeFileSync(join(bin, 'package.json'), '{"type": "module"}\n');
  const project = writeProject({ 'dbt_project.yml': "name: cached\nversion: '1.0'\n", 'models/m.sql': 'select 1 as x\n' });
  const run = (...args: string[]) => spawnSync(process.execPath, [join(bin, 'main.cjs'), ...args], { env: cliEnv(), encoding: 'utf8' });
  const caches = () => readdirSync(bin).filter((f) => f.endsWith('.v8cache')).sort();

  it('the first run of a command writes its cache; the next runs read it and print the same', () => {
    const first = run('ls', '--project-dir', project);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe('cached.m');
    expect(caches()).toEqual(['cli.cjs.ls.v8cache']);
    const second = run('ls', '--project-dir', project);
    expect(second.stdout).toBe(first.stdout);
    expect(run('parse', '--project-dir', project).status).toBe(0);
    expect(caches()).toEqual(['cli.cjs.ls.v8cache', 'cli.cjs.parse.v8cache']);
  });

  it('a corrupt cache is rejected by V8, the command runs, and the cache is written again', () => {
    writeFileSync(join(bin, 'cli.cjs.ls.v8cache'), 'not a code cache');
    const r = run('ls', '--project-dir', project);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('cached.m');
    expect(readdirSync(bin).some((f) => f.endsWith('.tmp'))).toBe(false);
    expect(existsSync(join(bin, 'cli.cjs.ls.v8cache'))).toBe(true);
    expect(run('ls', '--project-dir', project).stdout.trim()).toBe('cached.m');
  });

  it('--version answers without loading the bundle, as commander would print it', () => {
    const version = run('--version');
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(run('-v').stdout).toBe(version.stdout);
  });
});

import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

const stamps = (text: string) => text.replace(/^\d\d:\d\d:\d\d {2}/gm, '');

function project(projectFile: string): string {
  const dir = writeProject({ 'dbt_project.yml': projectFile, 'models/a.sql': 'select 1 as x\n', 'target/run_results.json': '{}', 'dbt_packages/p/dbt_project.yml': 'name: p\n', 'logs/x.log': '' });
  return dir;
}

describe('mini-dbt clean, as dbt cleans', () => {
  it('removes the target path by default (clean-targets unset)', () => {
    const dir = project('name: shop\n');
    const r = runCli(['clean', '--project-dir', dir]);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'target'))).toBe(false);
    expect(existsSync(join(dir, 'dbt_packages'))).toBe(true);
    expect(stamps(r.stdout)).toContain(`Checking ${join(dir, 'target')}/*\nCleaned ${join(dir, 'target')}/*\nFinished cleaning all paths.`);
  });

  it('removes every clean-targets folder, present or not', () => {
    const dir = project('name: shop\nclean-targets: [target, dbt_packages, logs, not_there]\n');
    const r = runCli(['clean', '--project-dir', dir]);
    expect(r.code).toBe(0);
    for (const f of ['target', 'dbt_packages', 'logs']) expect(existsSync(join(dir, f))).toBe(false);
    expect(existsSync(join(dir, 'models/a.sql'))).toBe(true);
  });

  it('refuses a source path, and cleans nothing', () => {
    const dir = project('name: shop\nclean-targets: [target, models]\n');
    const r = runCli(['clean', '--project-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: mini-dbt will not clean the following source paths: ['${join(dir, 'models')}']`);
    expect(existsSync(join(dir, 'target'))).toBe(true);
    expect(existsSync(join(dir, 'models/a.sql'))).toBe(true);
  });

  it('refuses a folder outside the project unless --no-clean-project-files-only', () => {
    const outside = mkdtempSync(join(tmpdir(), 'mini-dbt-outside-'));
    mkdirSync(join(outside, 'junk'));
    writeFileSync(join(outside, 'junk/f'), 'x');
    const dir = project(`name: shop\nclean-targets: [target, "${join(outside, 'junk')}"]\n`);
    const refused = runCli(['clean', '--project-dir', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Error: mini-dbt will not clean the following directories outside the project: ['${join(outside, 'junk')}']`);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(outside, 'junk/f'))).toBe(true);
    expect(existsSync(join(dir, 'target'))).toBe(true);
    const allowed = runCli(['clean', '--no-clean-project-files-only', '--project-dir', dir]);
    expect(allowed.code).toBe(0);
    expect(existsSync(join(outside, 'junk'))).toBe(false);
    expect(existsSync(join(dir, 'target'))).toBe(false);
  });

  it('never cleans the project folder or a folder holding it, whatever the flag', () => {
    const dir = project('name: shop\nclean-targets: [".", ".."]\n');
    const r = runCli(['clean', '--no-clean-project-files-only', '--project-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: mini-dbt will not clean the project folder or a folder holding it');
    expect(existsSync(join(dir, 'models/a.sql'))).toBe(true);
  });
});

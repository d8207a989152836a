import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEPS_BAD_INPUTS } from '../support/deps-bad-inputs.js';
import { exampleProject, REPO_ROOT } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** docs/errors.md rows E180-E189: | id | category | bad input | `message` | exit | */
function documented(): Map<string, { message: string; exit: number }> {
  const rows = new Map<string, { message: string; exit: number }>();
  for (const line of readFileSync(join(REPO_ROOT, 'docs/errors.md'), 'utf8').split('\n')) {
    const m = /^\| (E18\d) \|[^|]*\|[^|]*\| `(.*)` \| (\d) \|$/.exec(line);
    if (m) rows.set(m[1]!, { message: m[2]!.replace(/\\\|/g, '|'), exit: Number(m[3]) });
  }
  return rows;
}

/** Every file under `dir` with its text (a symlink as its target). */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile()) out[path.slice(dir.length)] = readFileSync(path, 'utf8');
  }
  return out;
}

describe('deps on bad input: one message each, exit 2, the installed packages and the lock untouched', () => {
  const docs = documented();

  it('documents E180-E189, each one a case here', () => {
    expect([...docs.keys()].sort()).toEqual(DEPS_BAD_INPUTS.map((c) => c.id).sort());
  });

  it.each(DEPS_BAD_INPUTS)('$id', async ({ id, edit, args }) => {
    const dir = exampleProject();
    mkdirSync(join(dir, 'dbt_packages/kept'), { recursive: true });
    writeFileSync(join(dir, 'dbt_packages/kept/dbt_project.yml'), 'name: kept\n');
    writeFileSync(join(dir, 'package-lock.yml'), 'packages: []\nsha1_hash: stale\n');
    const before = tree(join(dir, 'dbt_packages'));
    const cleanup = await edit?.(dir);
    let seen: string;
    let code: number;
    let stderr: string;
    try {
      const result = runCli([...args, '--project-dir', dir]);
      seen = `${result.stderr}\n${result.stdout}`.replaceAll(dir, '<project>');
      code = result.code;
      stderr = result.stderr;
    } finally {
      if (typeof cleanup === 'function') cleanup();
    }
    const doc = docs.get(id);
    expect(doc, `${id} is not documented; it printed:\n${seen}`).toBeDefined();
    expect(seen).toContain(doc!.message);
    expect(code).toBe(doc!.exit);
    expect(stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(stderr.match(/Error:/g)).toHaveLength(1);
    expect(tree(join(dir, 'dbt_packages'))).toEqual(before);
    expect(readFileSync(join(dir, 'package-lock.yml'), 'utf8')).toBe('packages: []\nsha1_hash: stale\n');
    expect(readdirSync(dir).filter((f) => f.includes('installing'))).toEqual([]);
  });
});

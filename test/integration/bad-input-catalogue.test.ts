import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BAD_INPUTS } from '../support/bad-input-catalogue.js';
import { exampleProject, REPO_ROOT } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/** docs/errors.md rows: | id | category | bad input | `message` | exit | */
function documented(): Map<string, { message: string; exit: number }> {
  const rows = new Map<string, { message: string; exit: number }>();
  for (const line of readFileSync(join(REPO_ROOT, 'docs/errors.md'), 'utf8').split('\n')) {
    const m = /^\| (E\d+) \|[^|]*\|[^|]*\| `(.*)` \| (\d) \|$/.exec(line);
    if (m) rows.set(m[1]!, { message: m[2]!.replace(/\\\|/g, '|'), exit: Number(m[3]) });
  }
  return rows;
}

let base: string;
beforeAll(() => {
  base = exampleProject();
  expect(runCli(['build', '--project-dir', base]).code).toBe(0);
});

describe('the bad-input catalogue (docs/errors.md): each message, exit code, and an unchanged warehouse', () => {
  const docs = documented();

  it('documents at least 80 bad inputs, every one of them tested', () => {
    expect(docs.size).toBeGreaterThanOrEqual(80);
    expect([...docs.keys()].sort()).toEqual(BAD_INPUTS.map((c) => c.id).sort());
  });

  it.each(BAD_INPUTS)('$id', async ({ id, edit, args }) => {
    const dir = exampleProject();
    writeFileSync(join(dir, 'warehouse.db'), readFileSync(join(base, 'warehouse.db')));
    const cleanup = await edit?.(dir);
    const db = join(dir, 'warehouse.db');
    const before = warehouseSnapshot(db);
    try {
      const result = runCli([...args, '--project-dir', dir]);
      const seen = `${result.stderr}\n${result.stdout}`.replaceAll(dir, '<project>');
      const doc = docs.get(id);
      expect(doc, `${id} is not documented; it printed:\n${seen}`).toBeDefined();
      expect(seen).toContain(doc!.message);
      expect(result.code).toBe(doc!.exit);
      expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
    } finally {
      if (typeof cleanup === 'function') cleanup();
    }
    expect(warehouseSnapshot(db)).toEqual(before);
  });
});

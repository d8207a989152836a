import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BAD_INPUTS, type BadInput } from '../support/bad-input-catalogue.js';
import { cliLanes } from '../support/cli-lanes.js';
import { DEPS_BAD_INPUTS } from '../support/deps-bad-inputs.js';
import { exampleProject, REPO_ROOT } from '../support/example-project.js';
import { runCliAsync } from '../support/run-cli.js';
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

/**
 * Two cases at once (each on its own project copy, its CLI a child process):
 * the file's time is CLI processes, and two of them fill both cores. The deps
 * cases run alone: their hub's address is in process.env while they run, which
 * a CLI spawned beside them would inherit.
 */
const LANES = 2;
const lane = cliLanes(LANES);

let base: string;
let baseWarehouse: Buffer;
let baseSnapshot: Record<string, unknown>;
beforeAll(async () => {
  base = exampleProject();
  expect((await runCliAsync(['build', '--project-dir', base])).code).toBe(0);
  baseWarehouse = readFileSync(join(base, 'warehouse.db'));
  baseSnapshot = warehouseSnapshot(join(base, 'warehouse.db'));
});

/** The warehouse's snapshot: the built example's (taken once) when the case left its bytes as they were. */
function snapshotOf(db: string): Record<string, unknown> {
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(db);
  } catch {
    // Missing or not a file: warehouseSnapshot says which.
  }
  return bytes?.equals(baseWarehouse) ? structuredClone(baseSnapshot) : warehouseSnapshot(db);
}

describe('the bad-input catalogue (docs/errors.md): each message, exit code, and an unchanged warehouse', () => {
  const docs = documented();

  it('documents at least 80 bad inputs, every one of them tested', () => {
    expect(docs.size).toBeGreaterThanOrEqual(80);
    expect([...docs.keys()].sort()).toEqual(BAD_INPUTS.map((c) => c.id).sort());
  });

  it.concurrent.for(BAD_INPUTS)('$id', async (input: BadInput, { expect }) => {
    const { id, edit, args } = input;
    await lane(async () => {
      const dir = exampleProject();
      writeFileSync(join(dir, 'warehouse.db'), baseWarehouse);
      const cleanup = await edit?.(dir);
      const db = join(dir, 'warehouse.db');
      const before = snapshotOf(db);
      try {
        const result = await runCliAsync([...args, '--project-dir', dir]);
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
    }, DEPS_BAD_INPUTS.includes(input) ? LANES : 1);
  });
});

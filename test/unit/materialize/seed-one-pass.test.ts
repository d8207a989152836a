import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../src/engine/open-warehouse.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { loadSeed, type LoadSeedOptions } from '../../../src/materialize/seed.js';

// Plain files are loaded in one read, with types guessed from the first 10,000 rows; these files are
// longer than that, so the guess, the late checks and the fallback to two passes are all exercised.
const SAMPLE = 10_000;

let dir: string;
let db: Warehouse;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mini-dbt-seed-one-pass-'));
  db = openWarehouse(join(dir, 'warehouse.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function seedFile(lines: string[], extra: Partial<LoadSeedOptions> = {}): LoadSeedOptions {
  const csvPath = join(dir, 'big.csv');
  writeFileSync(csvPath, `${lines.join('\n')}\n`);
  return { csvPath, displayPath: 'seeds/big.csv', table: 'big', ...extra };
}

const body = (n: number, row: (i: number) => string) => Array.from({ length: n }, (_, i) => row(i));

async function loadError(options: LoadSeedOptions): Promise<ProjectError> {
  const err = await loadSeed(db, options).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProjectError);
  return err as ProjectError;
}

describe('one-pass seed loads of long plain files', () => {
  it('infers the same types as two passes when a late row widens a column', async () => {
    const lines = ['id,code,ratio,late_null', ...body(SAMPLE + 500, (i) => `${i},${i},${i},`), '1,007,0.5,3', '2,x,1e3,'];
    const result = await loadSeed(db, seedFile(lines));
    expect(result.columns).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: 'code', type: 'TEXT' },
      { name: 'ratio', type: 'REAL' },
      { name: 'late_null', type: 'INTEGER' },
    ]);
    expect(result.rows).toBe(SAMPLE + 502);
    const last = db.prepare('select code, typeof(code) t, ratio, typeof(ratio) r, late_null from big order by rowid desc limit 2').all();
    expect(last).toEqual([
      { code: 'x', t: 'text', ratio: 1000, r: 'real', late_null: null },
      { code: '007', t: 'text', ratio: 0.5, r: 'real', late_null: 3 },
    ]);
    expect(db.prepare("select typeof(code) from big where id = 5").value()).toBe('text');
  });

  it("a late value that makes a date column text (on SQLite TEXT either way) loads every value of it as written, not in dbt-sqlite's stored form", async () => {
    const lines = ['id,day,flag', ...body(SAMPLE + 10, (i) => `${i},2024-1-5,True`), '-1,soon,false'];
    const result = await loadSeed(db, seedFile(lines));
    expect(result.columns).toEqual([{ name: 'id', type: 'INTEGER' }, { name: 'day', type: 'TEXT' }, { name: 'flag', type: 'INT' }]);
    expect(db.prepare('select day, flag, count(*) as n from big group by day, flag order by n').all()).toEqual([
      { day: 'soon', flag: 0, n: 1 },
      { day: '2024-1-5', flag: 1, n: SAMPLE + 10 },
    ]);
    // A column that stays a date and a boolean throughout is stored as dbt-sqlite stores it.
    await loadSeed(db, seedFile(['id,day,flag', ...body(SAMPLE + 10, (i) => `${i},2024-1-5,True`)]));
    expect(db.prepare('select day, flag, count(*) as n from big group by day, flag').all()).toEqual([{ day: '2024-01-05', flag: 1, n: SAMPLE + 10 }]);
  });

  it('falls back to parsing when a quote shows up after the sample', async () => {
    const lines = ['id,note', ...body(SAMPLE + 10, (i) => `${i},n${i}`), '-1,"a, b"'];
    const result = await loadSeed(db, seedFile(lines));
    expect(result.rows).toBe(SAMPLE + 11);
    expect(db.prepare('select note from big where id = -1').value()).toBe('a, b');
  });

  it('reports a late bad value or ragged row at its line and keeps the old table', async () => {
    await loadSeed(db, seedFile(['id,qty', '1,2']));
    const badValue = ['id,qty', ...body(SAMPLE + 100, (i) => `${i},${i}`), '7,seven'];
    const err = await loadError(seedFile(badValue, { columnTypes: { id: 'INTEGER', qty: 'INTEGER' } }));
    expect(err.format()).toBe(`seeds/big.csv:${SAMPLE + 102}: value 'seven' in column 'qty' is not a valid INTEGER (column_types)`);
    const ragged = ['id,qty', ...body(SAMPLE + 100, (i) => `${i},${i}`), '8'];
    expect((await loadError(seedFile(ragged))).format()).toBe(`seeds/big.csv:${SAMPLE + 102}: row has 1 field but the header has 2 columns`);
    expect(db.prepare('select * from big').all()).toEqual([{ id: 1, qty: 2 }]);
    expect(db.inTransaction).toBe(false);
  });
});

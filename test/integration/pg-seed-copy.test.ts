import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { useTargetEngine } from '../../src/engine/current-engine.js';
import { openPostgres } from '../../src/engine/postgres/open-postgres.js';
import type { PostgresConnection } from '../../src/engine/postgres/pg-connection.js';
import { ProjectError } from '../../src/errors/project-error.js';
import { loadSeed, type LoadSeedOptions } from '../../src/materialize/seed.js';
import type { PostgresSettings } from '../../src/project/target.js';
import { describePg, freshPgDatabase, withPgClient, type PgTestTarget } from '../support/pg-test-database.js';

/**
 * Seeds on PostgreSQL (issue 17) load through COPY ... FROM STDIN into a
 * staging table, swapped in within the load's one transaction, with every
 * check a seed has on SQLite: the values keep their meaning (exact
 * numeric(12,2), text stays text, empty fields NULL), quoting, delimiters and
 * encodings, a refused row reported at its line of the file, and the old
 * table left whole when a load fails.
 */
describePg('seeds on PostgreSQL load through COPY', () => {
  let place: PgTestTarget;
  let db: PostgresConnection;
  let dir: string;
  let copies: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    place = await freshPgDatabase('seedcopy');
    const settings: PostgresSettings = { host: place.host, port: place.port, user: place.user, password: place.password, dbname: place.database, connectTimeout: 10 };
    useTargetEngine({ type: 'postgres', schema: 'public', postgres: settings });
    db = openPostgres('pg', { busyTimeoutMs: 2000 }, settings, 'public');
    copies = vi.spyOn(db, 'copyIn');
    dir = mkdtempSync(join(tmpdir(), 'mini-dbt-pg-seed-'));
  });
  afterAll(async () => {
    db?.close();
    await place?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  function seedFile(name: string, content: string | Buffer, extra: Partial<LoadSeedOptions> = {}): LoadSeedOptions {
    const csvPath = join(dir, name);
    writeFileSync(csvPath, content);
    return { csvPath, displayPath: `seeds/${name}`, table: name.replace(/\.csv$/, ''), ...extra };
  }

  /** Rows as PostgreSQL holds them, every value as its text (exactly what is stored). */
  const textRows = (table: string, order: string): Promise<unknown[][]> =>
    withPgClient(async (client) => (await client.query({ text: `select * from "${table}" order by ${order}`, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } })).rows, place);

  const columnTypes = (table: string): Promise<Record<string, string>> =>
    withPgClient(async (client) => {
      const r = await client.query(`select a.attname, format_type(a.atttypid, a.atttypmod) as t from pg_attribute a where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`, [table]);
      return Object.fromEntries(r.rows.map((row: { attname: string; t: string }) => [row.attname, row.t]));
    }, place);

  async function loadError(options: LoadSeedOptions): Promise<ProjectError> {
    const err = await loadSeed(db, options).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ProjectError);
    return err as ProjectError;
  }

  it('keeps every value: exact numeric(12,2), inferred integer and float, text that looks like a number, NULLs', async () => {
    copies.mockClear();
    const csv = ['id,amount,ratio,code,note', '1,19.99,0.5,007,plain', '2,0.10,-1.25e3,42,', '3,123456.78,2,x,null', '4,,,"",tab\there'].join('\n');
    const result = await loadSeed(db, seedFile('orders.csv', csv, { columnTypes: { amount: 'numeric(12,2)' } }));
    expect(result.rows).toBe(4);
    expect(copies).toHaveBeenCalledTimes(1);
    expect(await columnTypes('orders')).toEqual({ id: 'integer', amount: 'numeric(12,2)', ratio: 'double precision', code: 'text', note: 'text' });
    expect(await textRows('orders', 'id')).toEqual([
      ['1', '19.99', '0.5', '007', 'plain'],
      ['2', '0.10', '-1250', '42', null],
      ['3', '123456.78', '2', 'x', null],
      ['4', null, null, null, 'tab\there'],
    ]);
    // The sum is exact to the cent (a float column would not be).
    expect(await withPgClient(async (c) => (await c.query('select sum(amount)::text as s from orders')).rows[0].s, place)).toBe('123476.87');
  });

  it('loads quoted fields with delimiters, quotes, backslashes and line breaks in them, and a ; delimiter', async () => {
    const csv = 'k;v\n1;"a;b"\n2;"say ""hi"""\n3;"back\\slash \\N"\n4;"two\r\nlines"\n5;\\.\n';
    await loadSeed(db, seedFile('quoted.csv', csv, { delimiter: ';' }));
    expect(await textRows('quoted', 'k')).toEqual([['1', 'a;b'], ['2', 'say "hi"'], ['3', 'back\\slash \\N'], ['4', 'two\r\nlines'], ['5', '\\.']]);
  });

  it('decodes the declared encoding', async () => {
    await loadSeed(db, seedFile('latin.csv', Buffer.from('name\ncaf\xe9\n', 'latin1'), { encoding: 'latin1' }));
    expect(await textRows('latin', 'name')).toEqual([['café']]);
  });

  it('reports a value the database refuses at its line of the file, and leaves the old table as it was', async () => {
    await loadSeed(db, seedFile('events.csv', 'id,day\n1,2024-01-01\n', { columnTypes: { day: 'date' } }));
    const err = await loadError(seedFile('events.csv', 'id,day\n1,2024-01-01\n\n2,2024-02-30\n', { columnTypes: { day: 'date' } }));
    expect(err.location).toEqual({ file: 'seeds/events.csv', line: 4 });
    expect(err.message).toMatch(/the database refused this row \(column 'day'\): .*date/);
    expect(await textRows('events', 'id')).toEqual([['1', '2024-01-01']]);
    // An int4 column: a value beyond its range (the seed's own check allows 64 bits).
    const big = await loadError(seedFile('events.csv', 'id,day\n1,2024-01-01\n3000000000,2024-01-02\n', { columnTypes: { id: 'integer', day: 'date' } }));
    expect(big.location.line).toBe(3);
    expect(big.message).toMatch(/column 'id'.*out of range/);
    expect(await textRows('events', 'id')).toEqual([['1', '2024-01-01']]);
    // The seed's own checks still come first (no database round trip), with file and line.
    const own = await loadError(seedFile('events.csv', 'id,day\n1,2024-01-01\nx,2024-01-02\n', { columnTypes: { id: 'bigint' } }));
    expect(own.location).toEqual({ file: 'seeds/events.csv', line: 3 });
    expect(own.message).toMatch(/value 'x' in column 'id' is not a valid bigint/);
    const ragged = await loadError(seedFile('events.csv', 'id,day\n1,2024-01-01,extra\n'));
    expect(ragged.location.line).toBe(2);
  });

  it('streams a large file in several COPY batches: a refused row deep in it is named at its line', async () => {
    const lines = ['id,day,amount,label'];
    for (let i = 1; i <= 150_000; i++) lines.push(`${i},2024-0${1 + (i % 9)}-1${i % 10},${(i % 1000) + 0.25},label number ${i}`);
    await loadSeed(db, seedFile('big.csv', `${lines.join('\n')}\n`, { columnTypes: { day: 'date', amount: 'numeric(12,2)' }, indexes: [{ columns: ['day'] }] }));
    expect(await withPgClient(async (c) => (await c.query('select count(*)::int as n, sum(amount)::text as s from big')).rows[0], place)).toEqual({ n: 150_000, s: (lines.slice(1).reduce((s, l) => s + Math.round(Number(l.split(',')[2]) * 100), 0) / 100).toFixed(2) });
    expect(await withPgClient(async (c) => (await c.query("select indexname from pg_indexes where tablename = 'big'")).rows.map((r: { indexname: string }) => r.indexname), place)).toEqual(['big__idx__day']);
    // One COPY per load, fed batch by batch: a refused row is named whether the server reports it
    // while a later batch is being read (the first batch's row) or at the end (the last batch's).
    for (const bad of [1_000, 140_000]) {
      copies.mockClear();
      const broken = [...lines];
      broken[bad] = `${bad},2024-13-01,1.00,bad month`;
      const err = await loadError(seedFile('big.csv', `${broken.join('\n')}\n`, { columnTypes: { day: 'date', amount: 'numeric(12,2)' }, indexes: [{ columns: ['day'] }] }));
      expect(copies).toHaveBeenCalledTimes(1);
      expect(err.location).toEqual({ file: 'seeds/big.csv', line: bad + 1 });
      expect(err.message).toMatch(/column 'day'/);
    }
    expect(await withPgClient(async (c) => (await c.query('select count(*)::int as n from big')).rows[0].n, place)).toBe(150_000);
    // The seed's own check failing while the COPY is open (a ragged row late in the file): the COPY is abandoned.
    const ragged = [...lines];
    ragged[145_000] = '145000,2024-01-01';
    const short = await loadError(seedFile('big.csv', `${ragged.join('\n')}\n`, { columnTypes: { day: 'date', amount: 'numeric(12,2)' }, indexes: [{ columns: ['day'] }] }));
    expect(short.location).toEqual({ file: 'seeds/big.csv', line: 145_001 });
    expect(short.message).toMatch(/row has 2 fields but the header has 4 columns/);
    // The connection is usable after a failed COPY (rolled back, the COPY abandoned).
    expect(db.value('select count(*) from big')).toBe(150_000);
  });

  it('gives way to the two-pass load when a late row widens a type the sample inferred', async () => {
    const lines = ['n'];
    for (let i = 0; i < 12_000; i++) lines.push(String(i));
    lines.push('twelve thousand');
    await loadSeed(db, seedFile('widen.csv', lines.join('\n')));
    expect(await columnTypes('widen')).toEqual({ n: 'text' });
    expect((await textRows('widen', 'n desc'))[0]).toEqual(['twelve thousand']);
  });

  it('creates an empty table with the file\'s types for --empty', async () => {
    await loadSeed(db, seedFile('shape.csv', 'a,b\n1,x\n', { empty: true }));
    expect(await columnTypes('shape')).toEqual({ a: 'integer', b: 'text' });
    expect(await textRows('shape', 'a')).toEqual([]);
  });
});

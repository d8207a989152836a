import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTargetEngine } from '../../src/engine/current-engine.js';
import { openWarehouse, type Warehouse } from '../../src/engine/open-warehouse.js';
import { openPostgres } from '../../src/engine/postgres/open-postgres.js';
import type { PostgresConnection } from '../../src/engine/postgres/pg-connection.js';
import { FILE_TARGET, type PostgresSettings } from '../../src/project/target.js';
import { loadSeed, type LoadSeedOptions } from '../../src/materialize/seed.js';
import { describePg, freshPgDatabase, withPgClient, type PgTestTarget } from '../support/pg-test-database.js';

/**
 * A seed's inferred column types on PostgreSQL are dbt-postgres's: agate
 * reads each column as the first of Number, Date (YYYY-MM-DD), DateTime
 * (YYYY-MM-DD HH:MM:SS), ISO 8601 datetime, Boolean (true/false) that reads
 * every value, else Text, and SQLAdapter names them integer (float8 with
 * decimals), date, timestamp without time zone, boolean, text. An empty
 * column is agate's Number: integer. column_types wins over all of it. On
 * SQLite, which has no date or boolean type, the same file gets mini-dbt's
 * INTEGER / REAL / TEXT and dbt-sqlite's INT for booleans, holding what
 * dbt-sqlite stores (1 / 0; dates and timestamps in Python's ISO form).
 */
const HEADER = 'id,big,price,flag,day,at,iso,label,empty,mixed_day_ts,mixed_num_day,bad_day,zoned,zero_code,declared_day';
const ROWS = [
  '1,3000000000,19.99,true,2024-01-05,2024-01-05 10:00:00,2024-01-05T10:00:00,apple,,2024-01-05,1,2024-02-28,2024-01-05T10:00:00Z,007,2024-01-05',
  '2,-5,0.10,FALSE,2024-1-6,2024-01-06 23:59:59,2024-01-06T23:59:59.123456,,,2024-01-06 10:00:00,2024-01-06,2024-02-30,2024-01-06T10:00:00+02:00,042,2024-1-6',
  '3,,2,True,,,2024-01-07T08:30,null,null,,,,,,',
];
const CSV = [HEADER, ...ROWS].join('\n') + '\n';

/** information_schema's data_type of each column, in order. */
const PG_TYPES = {
  id: 'integer',
  big: 'bigint',
  price: 'double precision',
  flag: 'boolean',
  day: 'date',
  at: 'timestamp without time zone',
  iso: 'timestamp without time zone',
  label: 'text',
  empty: 'integer',
  mixed_day_ts: 'text',
  mixed_num_day: 'text',
  bad_day: 'text',
  zoned: 'text',
  zero_code: 'text',
  declared_day: 'text',
};

describePg('seed column types on PostgreSQL are dbt-postgres\'s', () => {
  let place: PgTestTarget;
  let db: PostgresConnection;
  let dir: string;

  beforeAll(async () => {
    place = await freshPgDatabase('seedtypes');
    const settings: PostgresSettings = { host: place.host, port: place.port, user: place.user, password: place.password, dbname: place.database, connectTimeout: 10 };
    useTargetEngine({ type: 'postgres', schema: 'public', postgres: settings });
    db = openPostgres('pg', { busyTimeoutMs: 2000 }, settings, 'public');
    dir = mkdtempSync(join(tmpdir(), 'mini-dbt-pg-seed-types-'));
  });
  afterAll(async () => {
    db?.close();
    await place?.drop();
    rmSync(dir, { recursive: true, force: true });
    useTargetEngine(FILE_TARGET);
  });

  function seedFile(name: string, content: string, extra: Partial<LoadSeedOptions> = {}): LoadSeedOptions {
    const csvPath = join(dir, name);
    writeFileSync(csvPath, content);
    return { csvPath, displayPath: `seeds/${name}`, table: name.replace(/\.csv$/, ''), ...extra };
  }

  const dataTypes = (table: string): Promise<Record<string, string>> =>
    withPgClient(async (client) => {
      const r = await client.query(`select column_name, data_type from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`, [table]);
      return Object.fromEntries(r.rows.map((row: { column_name: string; data_type: string }) => [row.column_name, row.data_type]));
    }, place);

  /** Rows as PostgreSQL prints them (every value as its text output). */
  const textRows = (table: string, columns: string): Promise<unknown[][]> =>
    withPgClient(async (client) => (await client.query({ text: `select ${columns} from "${table}" order by id`, rowMode: 'array', types: { getTypeParser: () => (v: string) => v } })).rows, place);

  it('infers integer, bigint, float8, boolean, date, timestamp, text; an empty column is integer; mixed columns are text; column_types wins', async () => {
    const result = await loadSeed(db, seedFile('typed.csv', CSV, { columnTypes: { declared_day: 'text' } }));
    expect(result.rows).toBe(3);
    expect(Object.fromEntries(result.columns.map((c) => [c.name, c.type]))).toMatchObject({
      id: 'integer', big: 'bigint', price: 'float8', flag: 'boolean', day: 'date', at: 'timestamp without time zone', empty: 'integer', declared_day: 'text',
    });
    expect(await dataTypes('typed')).toEqual(PG_TYPES);
    expect(await textRows('typed', '*')).toEqual([
      ['1', '3000000000', '19.99', 't', '2024-01-05', '2024-01-05 10:00:00', '2024-01-05 10:00:00', 'apple', null, '2024-01-05', '1', '2024-02-28', '2024-01-05T10:00:00Z', '007', '2024-01-05'],
      ['2', '-5', '0.1', 'f', '2024-01-06', '2024-01-06 23:59:59', '2024-01-06 23:59:59.123456', null, null, '2024-01-06 10:00:00', '2024-01-06', '2024-02-30', '2024-01-06T10:00:00+02:00', '042', '2024-1-6'],
      ['3', null, '2', 't', null, null, '2024-01-07 08:30:00', null, null, null, null, null, null, null, null],
    ]);
  });

  it('reads the values back as dbt prints them: dates and timestamps ISO, booleans and numbers as such', () => {
    const rows = db.prepare('select id, big, price, flag, day, at, iso, empty from "typed" order by id').all();
    expect(rows).toEqual([
      { id: 1, big: 3000000000, price: 19.99, flag: true, day: '2024-01-05', at: '2024-01-05 10:00:00', iso: '2024-01-05 10:00:00', empty: null },
      { id: 2, big: -5, price: 0.1, flag: false, day: '2024-01-06', at: '2024-01-06 23:59:59', iso: '2024-01-06 23:59:59.123456', empty: null },
      { id: 3, big: null, price: 2, flag: true, day: null, at: null, iso: '2024-01-07 08:30:00', empty: null },
    ]);
    // The typed columns are the engine's own: date arithmetic and boolean logic work on them.
    expect(db.prepare(`select count(*) as n from "typed" where flag and day + 1 = date '2024-01-06' and at < timestamp '2024-01-05 12:00'`).get()).toEqual({ n: 1 });
  });

  it('reads dates and timestamps ISO whatever the database\'s DateStyle (the session sets ISO, as psycopg does)', async () => {
    await withPgClient((c) => c.query(`alter database "${place.database}" set datestyle = 'German, DMY'`), place);
    const settings: PostgresSettings = { host: place.host, port: place.port, user: place.user, password: place.password, dbname: place.database, connectTimeout: 10 };
    const other = openPostgres('pg', { busyTimeoutMs: 2000 }, settings, 'public');
    try {
      expect(other.prepare('select day, at, cast(day as text) as day_text from "typed" where id = 1').get()).toEqual({ day: '2024-01-05', at: '2024-01-05 10:00:00', day_text: '2024-01-05' });
    } finally {
      other.close();
      await withPgClient((c) => c.query(`alter database "${place.database}" reset datestyle`), place);
    }
  });

  it('column_types overrides keep winning: a date column declared text, whole numbers declared numeric(12,2), booleans declared text', async () => {
    const csv = 'id,day,amount,flag\n1,2024-01-05,10,true\n2,2024-1-6,20,false\n';
    const result = await loadSeed(db, seedFile('declared.csv', csv, { columnTypes: { day: 'TEXT', amount: 'numeric(12,2)', flag: 'text' } }));
    expect(result.columns.map((c) => c.type)).toEqual(['integer', 'TEXT', 'numeric(12,2)', 'text']);
    expect(await dataTypes('declared')).toEqual({ id: 'integer', day: 'text', amount: 'numeric', flag: 'text' });
    expect(await textRows('declared', '*')).toEqual([
      ['1', '2024-01-05', '10.00', 'true'],
      ['2', '2024-1-6', '20.00', 'false'],
    ]);
  });

  it('a header alone gives integer columns (agate: no value, Number)', async () => {
    await loadSeed(db, seedFile('header_only.csv', 'id,name\n'));
    expect(await dataTypes('header_only')).toEqual({ id: 'integer', name: 'integer' });
  });

  it('a type that shows only after the first rows read (the one-pass sample): the load starts over with the right types', async () => {
    const lines = ['id,n,day,flag'];
    for (let i = 1; i <= 12_000; i++) lines.push(`${i},${i},2024-01-${String((i % 28) + 1).padStart(2, '0')},${i % 2 === 0 ? 'true' : 'false'}`);
    lines.push('12001,9000000000,not a day,maybe');
    await loadSeed(db, seedFile('late.csv', `${lines.join('\n')}\n`));
    expect(await dataTypes('late')).toEqual({ id: 'integer', n: 'bigint', day: 'text', flag: 'text' });
    const [row] = await withPgClient(async (c) => (await c.query('select count(*)::int as rows, max(n)::text as n from late')).rows, place);
    expect(row).toEqual({ rows: 12_001, n: '9000000000' });
  });
});

describe("seed column types on SQLite: INTEGER / REAL / TEXT, dbt-sqlite's INT for booleans (SQLite has no date, timestamp or boolean type)", () => {
  let dir: string;
  let db: Warehouse;
  beforeEach(() => {
    useTargetEngine(FILE_TARGET);
    dir = mkdtempSync(join(tmpdir(), 'mini-dbt-seed-types-'));
    db = openWarehouse(join(dir, 'warehouse.db'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("booleans are INT holding 1 / 0, dates and timestamps TEXT in dbt-sqlite's stored form, a declared column the file's text; an empty column is TEXT", async () => {
    const csvPath = join(dir, 'typed.csv');
    writeFileSync(csvPath, CSV);
    await loadSeed(db, { csvPath, displayPath: 'seeds/typed.csv', table: 'typed', columnTypes: { declared_day: 'text' } });
    const types = Object.fromEntries((db.prepare('select name, type from pragma_table_info(?)').all('typed') as { name: string; type: string }[]).map((c) => [c.name, c.type]));
    expect(types).toEqual({
      id: 'INTEGER', big: 'INTEGER', price: 'REAL', flag: 'INT', day: 'TEXT', at: 'TEXT', iso: 'TEXT', label: 'TEXT', empty: 'TEXT',
      mixed_day_ts: 'TEXT', mixed_num_day: 'TEXT', bad_day: 'TEXT', zoned: 'TEXT', zero_code: 'TEXT', declared_day: 'TEXT',
    });
    expect(db.prepare('select flag, day, at, iso, declared_day from typed order by id').rows()).toEqual([
      [1, '2024-01-05', '2024-01-05 10:00:00', '2024-01-05 10:00:00', '2024-01-05'],
      [0, '2024-01-06', '2024-01-06 23:59:59', '2024-01-06 23:59:59.123456', '2024-1-6'],
      [1, null, null, '2024-01-07 08:30:00', null],
    ]);
  });
});

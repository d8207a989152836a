import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../src/engine/open-warehouse.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { indexName, loadSeed, type LoadSeedOptions } from '../../../src/materialize/seed.js';

let dir: string;
let db: Warehouse;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mini-dbt-seed-'));
  db = openWarehouse(join(dir, 'warehouse.db'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Write `seeds/<name>` in the temp dir and return load options for it. */
function seedFile(name: string, content: string | Buffer, extra: Partial<LoadSeedOptions> = {}): LoadSeedOptions {
  const csvPath = join(dir, name);
  writeFileSync(csvPath, content);
  return { csvPath, displayPath: `seeds/${name}`, table: name.replace(/\.csv$/, ''), ...extra };
}

function rows(table: string): Record<string, unknown>[] {
  return db.prepare(`select * from "${table.replace(/"/g, '""')}" order by rowid`).all() as Record<string, unknown>[];
}

function typedRows(table: string, columns: string[]): unknown[][] {
  const list = columns.map((c) => `"${c}", typeof("${c}")`).join(', ');
  return db.prepare(`select ${list} from "${table}" order by rowid`).rows();
}

function tableInfo(table: string): { name: string; type: string }[] {
  return db.prepare('select name, type from pragma_table_info(?)').all(table) as { name: string; type: string }[];
}

function schema(): unknown[] {
  return db.prepare('select type, name, tbl_name, sql from sqlite_master order by name').all();
}

async function loadError(options: LoadSeedOptions): Promise<ProjectError> {
  try {
    await loadSeed(db, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ProjectError);
    return err as ProjectError;
  }
  throw new Error('expected loadSeed to fail');
}

describe('progress', () => {
  it('reports the bytes loaded (ending at the file size), then the index build; a file needing two passes reports both', async () => {
    const csv = `id,amount\n${Array.from({ length: 20_000 }, (_, i) => `${i},${i % 7}.5`).join('\n')}\n`;
    const seen: { stage: string; bytes: number; totalBytes: number }[] = [];
    await loadSeed(db, seedFile('big.csv', csv, { onProgress: (p) => seen.push(p) }));
    const loads = seen.filter((p) => p.stage === 'load');
    expect(loads.at(-1)).toEqual({ stage: 'load', bytes: csv.length, totalBytes: csv.length });
    expect(seen.at(-1)!.stage).toBe('index');
    // Quotes send it through csv-parse in two passes: types first, then the load.
    const quoted = csv.replace('\n5,', '\n"5",');
    const stages: string[] = [];
    await loadSeed(db, seedFile('quoted-big.csv', quoted, { onProgress: (p) => stages.push(p.stage) }));
    expect(stages.filter((stage, i) => stage !== stages[i - 1])).toEqual(['load', 'check', 'load', 'index']);
  });
});

describe('type inference', () => {
  it('infers INTEGER, REAL and TEXT over all values; empty and null load as NULL', async () => {
    const csv = [
      'id,price,name,zip,nothing,mixed,neg',
      '1,1.5,alice,007,,1,-3',
      '2,2,bob,01234,,2.5,-4.25',
      '3,,null,12345,null,x,0',
      '4,null,,99999,,,1e3',
    ].join('\n');
    const result = await loadSeed(db, seedFile('types.csv', csv));
    expect(result.rows).toBe(4);
    expect(result.columns).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: 'price', type: 'REAL' },
      { name: 'name', type: 'TEXT' },
      { name: 'zip', type: 'TEXT' },
      { name: 'nothing', type: 'TEXT' },
      { name: 'mixed', type: 'TEXT' },
      { name: 'neg', type: 'REAL' },
    ]);
    expect(tableInfo('types')).toEqual(result.columns);
    expect(typedRows('types', ['id', 'price', 'name', 'zip', 'nothing', 'mixed', 'neg'])).toEqual([
      [1, 'integer', 1.5, 'real', 'alice', 'text', '007', 'text', null, 'null', '1', 'text', -3, 'real'],
      [2, 'integer', 2, 'real', 'bob', 'text', '01234', 'text', null, 'null', '2.5', 'text', -4.25, 'real'],
      [3, 'integer', null, 'null', null, 'null', '12345', 'text', null, 'null', 'x', 'text', 0, 'real'],
      [4, 'integer', null, 'null', null, 'null', '99999', 'text', null, 'null', null, 'null', 1000, 'real'],
    ]);
  });

  it('keeps values that would change as numbers as TEXT', async () => {
    const csv = [
      'plus,huge,spaced,big_ok,neg_zero_lead,upper_null',
      '+5,12345678901234567890,1,9223372036854775807,-01,NULL',
      '6,1,2 ,-9223372036854775808,2,x',
    ].join('\n');
    const result = await loadSeed(db, seedFile('lossless.csv', csv));
    expect(result.columns.map((c) => c.type)).toEqual(['TEXT', 'TEXT', 'TEXT', 'INTEGER', 'TEXT', 'TEXT']);
    // Exact 64-bit integers, read back as their text (a JavaScript number would round them).
    expect(db.all('select typeof(big_ok) as kind, cast(big_ok as text) as value from lossless order by rowid')).toEqual([
      { kind: 'integer', value: '9223372036854775807' },
      { kind: 'integer', value: '-9223372036854775808' },
    ]);
    expect(rows('lossless')[0]).toMatchObject({ plus: '+5', huge: '12345678901234567890', neg_zero_lead: '-01', upper_null: 'NULL' });
  });

  it('skips a UTF-8 BOM and trims nothing else', async () => {
    const csv = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id, name \n1, padded \n')]);
    const result = await loadSeed(db, seedFile('bom.csv', csv));
    expect(result.columns).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: ' name ', type: 'TEXT' },
    ]);
    expect(rows('bom')).toEqual([{ id: 1, ' name ': ' padded ' }]);
  });

  it('handles quoted fields, embedded newlines, CRLF and other delimiters', async () => {
    const csv = 'id;note\r\n1;"a;b"\r\n2;"line one\r\nline two"\r\n3;"say ""hi"""\r\n';
    const result = await loadSeed(db, seedFile('quoted.csv', csv, { delimiter: ';' }));
    expect(result.rows).toBe(3);
    expect(rows('quoted')).toEqual([
      { id: 1, note: 'a;b' },
      { id: 2, note: 'line one\r\nline two' },
      { id: 3, note: 'say "hi"' },
    ]);
    await loadSeed(db, seedFile('tabs.csv', 'a\tb\nx\t1\n', { delimiter: '\t' }));
    expect(rows('tabs')).toEqual([{ a: 'x', b: 1 }]);
  });

  it('skips blank lines in a multi-column file', async () => {
    const result = await loadSeed(db, seedFile('blank.csv', 'a,b\n1,2\n\n3,4\n\n\n'));
    expect(result.rows).toBe(2);
    expect(rows('blank')).toEqual([
      { a: 1, b: 2 },
      { a: 3, b: 4 },
    ]);
  });

  it('loads a header-only file as an empty all-TEXT table', async () => {
    const result = await loadSeed(db, seedFile('empty_rows.csv', 'id,amount,when\n', { columnTypes: { amount: 'REAL' } }));
    expect(result.rows).toBe(0);
    expect(result.columns).toEqual([
      { name: 'id', type: 'TEXT' },
      { name: 'amount', type: 'REAL' },
      { name: 'when', type: 'TEXT' },
    ]);
    expect(tableInfo('empty_rows')).toEqual(result.columns);
    expect(rows('empty_rows')).toEqual([]);
    // Without a trailing newline too.
    await loadSeed(db, seedFile('no_newline.csv', 'x'));
    expect(tableInfo('no_newline')).toEqual([{ name: 'x', type: 'TEXT' }]);
  });
});

describe('column_types', () => {
  it('uses the declared type in the DDL and checks values against it', async () => {
    const csv = ['id,qty,price,code,day', '1,007,3,007,2024-01-01', '2,+5,.5,12,2024-01-02', '3,,1e2,,null'].join('\n');
    const result = await loadSeed(
      db,
      seedFile('typed.csv', csv, {
        columnTypes: { qty: 'BIGINT', price: 'DECIMAL(10, 2)', code: 'varchar(10)', day: 'date' },
      }),
    );
    expect(result.columns).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: 'qty', type: 'BIGINT' },
      { name: 'price', type: 'DECIMAL(10, 2)' },
      { name: 'code', type: 'varchar(10)' },
      { name: 'day', type: 'date' },
    ]);
    expect(tableInfo('typed')).toEqual(result.columns);
    expect(typedRows('typed', ['qty', 'price', 'code', 'day'])).toEqual([
      [7, 'integer', 3, 'integer', '007', 'text', '2024-01-01', 'text'],
      [5, 'integer', 0.5, 'real', '12', 'text', '2024-01-02', 'text'],
      [null, 'null', 100, 'integer', null, 'null', null, 'null'],
    ]);
  });

  it('reports a value that does not fit with file, line, column, value and type, before touching the database', async () => {
    await loadSeed(db, seedFile('x.csv', 'id,qty\n1,2\n'));
    const before = { schema: schema(), rows: rows('x') };
    // Row 2 spans lines 3-4, so 'abc' is on line 7 although it is the 5th data row.
    const csv = ['id,qty,note', '1,1,a', '2,2,"multi', 'line"', '3,3,c', '4,4,d', '5,abc,e', '6,6,f'].join('\n');
    const options = seedFile('x.csv', csv, { columnTypes: { qty: 'INTEGER' } });
    const err = await loadError(options);
    expect(err.message).toBe("value 'abc' in column 'qty' is not a valid INTEGER (column_types)");
    expect(err.location).toEqual({ file: 'seeds/x.csv', line: 7 });
    expect(err.format()).toBe("seeds/x.csv:7: value 'abc' in column 'qty' is not a valid INTEGER (column_types)");
    expect(schema()).toEqual(before.schema);
    expect(rows('x')).toEqual(before.rows);
  });

  it('rejects non-numbers in REAL/NUMERIC columns and non-integers in INT columns', async () => {
    const real = await loadError(seedFile('r.csv', 'a\n1.5\n1,5\n', { columnTypes: { a: 'REAL' }, delimiter: ';' }));
    expect(real.format()).toBe("seeds/r.csv:3: value '1,5' in column 'a' is not a valid REAL (column_types)");
    const int = await loadError(seedFile('i.csv', 'a\n1\n2.0\n', { columnTypes: { a: 'int' } }));
    expect(int.format()).toBe("seeds/i.csv:3: value '2.0' in column 'a' is not a valid int (column_types)");
    const range = await loadError(seedFile('big.csv', 'a\n9223372036854775808\n', { columnTypes: { a: 'BIGINT' } }));
    expect(range.location.line).toBe(2);
  });

  it('lists the real columns when column_types names an unknown column', async () => {
    const err = await loadError(seedFile('u.csv', 'id,quantity\n1,2\n', { columnTypes: { qty: 'INTEGER' } }));
    expect(err.message).toContain("'qty'");
    expect(err.message).toContain('id, quantity');
    expect(err.location.file).toBe('seeds/u.csv');
    expect(schema()).toEqual([]);
  });

  it('rejects a type that is not a plain SQL type name', async () => {
    const err = await loadError(seedFile('t.csv', 'a\n1\n', { columnTypes: { a: 'int); drop table x; --' } }));
    expect(err.message).toContain('not a valid SQL type');
  });
});

describe('malformed files', () => {
  it('reports a ragged row with file:line and counts, and leaves the old table exactly as it was', async () => {
    const good = ['id,name,amount', '1,a,1.5', '2,b,2.5', '3,c,3.5'].join('\n');
    const options = seedFile('orders.csv', good, { indexes: [{ columns: ['id'] }] });
    await loadSeed(db, options);
    const before = { schema: schema(), rows: rows('orders') };

    writeFileSync(options.csvPath, ['id,name,amount', '1,a,1.5', '2,"b', 'c",2.5', '3,c', '4,d,4.5'].join('\n'));
    const exec = vi.spyOn(db, 'exec');
    const err = await loadError(options);
    expect(exec).not.toHaveBeenCalled(); // detected in pass 1: no transaction was even started
    exec.mockRestore();
    expect(err.location).toEqual({ file: 'seeds/orders.csv', line: 5 });
    expect(err.message).toBe('row has 2 fields but the header has 3 columns');
    expect(err.format()).toBe('seeds/orders.csv:5: row has 2 fields but the header has 3 columns');
    expect(schema()).toEqual(before.schema);
    expect(rows('orders')).toEqual(before.rows);
  });

  it('reports the line of a ragged row in a CRLF file', async () => {
    const err = await loadError(seedFile('crlf.csv', 'a,b\r\n1,2\r\n3,4\r\n5\r\n'));
    expect(err.location.line).toBe(4);
    expect(err.message).toContain('1 field but the header has 2');
  });

  it('rejects an empty file, empty and duplicate column names, and broken quoting', async () => {
    expect((await loadError(seedFile('e.csv', ''))).message).toContain('empty');
    expect((await loadError(seedFile('e2.csv', Buffer.from([0xef, 0xbb, 0xbf])))).message).toContain('empty');
    const emptyName = await loadError(seedFile('n.csv', 'a,,c\n1,2,3\n'));
    expect(emptyName.message).toBe('column 2 of the header has an empty name');
    expect(emptyName.location).toEqual({ file: 'seeds/n.csv', line: 1 });
    const duplicate = await loadError(seedFile('d.csv', 'id,name,ID\n1,2,3\n'));
    expect(duplicate.message).toContain("duplicate column name 'ID'");
    const quote = await loadError(seedFile('q.csv', 'a,b\n1,"open\n2,3\n'));
    expect(quote.message).toContain('invalid CSV');
    expect(quote.location.file).toBe('seeds/q.csv');
    const missing = await loadError({ csvPath: join(dir, 'nope.csv'), displayPath: 'seeds/nope.csv', table: 'nope' });
    expect(missing.message).toContain('cannot read seed file');
    expect(schema()).toEqual([]);
  });
});

describe('replacing the table', () => {
  it('reload replaces the table, its columns and rows', async () => {
    const options = seedFile('people.csv', 'id,name\n1,ann\n2,bob\n');
    await loadSeed(db, options);
    writeFileSync(options.csvPath, 'id,name,age\n3,cy,40\n');
    const result = await loadSeed(db, options);
    expect(result.rows).toBe(1);
    expect(rows('people')).toEqual([{ id: 3, name: 'cy', age: 40 }]);
    expect(schema()).toEqual([
      expect.objectContaining({ type: 'table', name: 'people' }),
    ]);
  });

  it('replaces a view of the same name', async () => {
    db.exec('create view people as select 1 as x');
    await loadSeed(db, seedFile('people.csv', 'id\n1\n'));
    expect(rows('people')).toEqual([{ id: 1 }]);
  });

  it('keeps a view that selects from the seed working after a reload', async () => {
    const options = seedFile('raw.csv', 'id,amount\n1,10\n2,20\n');
    await loadSeed(db, options);
    db.exec('create view totals as select count(*) as n, sum(amount) as total from raw');
    expect(db.prepare('select * from totals').get()).toEqual({ n: 2, total: 30 });
    writeFileSync(options.csvPath, 'id,amount\n1,10\n2,20\n3,30\n');
    await loadSeed(db, options);
    expect(db.prepare('select * from totals').get()).toEqual({ n: 3, total: 60 });
    expect(db.prepare("select sql from sqlite_master where name = 'totals'").value()).toContain('from raw');
  });

  it('drops a leftover staging table first', async () => {
    db.exec('create table "left__mini_dbt_tmp" (junk)');
    const result = await loadSeed(db, seedFile('left.csv', 'a\n1\n'));
    expect(result.statements[0]).toBe('drop table "left__mini_dbt_tmp"');
    expect(schema()).toEqual([expect.objectContaining({ name: 'left' })]);
  });

  it('returns the DDL it ran', async () => {
    const options = seedFile('ddl.csv', 'id,v\n1,x\n', { indexes: [{ columns: ['id'], unique: true }] });
    const first = await loadSeed(db, options);
    expect(first.statements).toEqual([
      'create table "ddl__mini_dbt_tmp" ("id" INTEGER, "v" TEXT)',
      'create unique index "ddl__idx__id" on "ddl__mini_dbt_tmp" ("id")',
      'alter table "ddl__mini_dbt_tmp" rename to "ddl"',
    ]);
    const second = await loadSeed(db, options);
    expect(second.statements).toEqual([
      'drop index "ddl__idx__id"',
      'create table "ddl__mini_dbt_tmp" ("id" INTEGER, "v" TEXT)',
      'create unique index "ddl__idx__id" on "ddl__mini_dbt_tmp" ("id")',
      'drop table "ddl"',
      'alter table "ddl__mini_dbt_tmp" rename to "ddl"',
    ]);
  });

  it('handles table and column names with spaces, quotes and keywords', async () => {
    const csv = '"order id","select","say ""hi""",\'single\'\n1,2,3,4\n';
    const result = await loadSeed(
      db,
      seedFile('odd.csv', csv, {
        table: 'my "odd" table',
        columnTypes: { select: 'TEXT' },
        indexes: [{ columns: ['order id', 'say "hi"'] }],
      }),
    );
    expect(result.columns.map((c) => c.name)).toEqual(['order id', 'select', 'say "hi"', "'single'"]);
    expect(rows('my "odd" table')).toEqual([{ 'order id': 1, select: '2', 'say "hi"': 3, "'single'": 4 }]);
    // and again, to go through the swap and index re-creation
    await loadSeed(db, seedFile('odd.csv', csv, { table: 'my "odd" table', indexes: [{ columns: ['order id', 'say "hi"'] }] }));
    const indexes = db.prepare('select name from pragma_index_list(?)').values('my "odd" table');
    expect(indexes).toEqual(['my "odd" table__idx__order id__say "hi"']);
  });

  it('loads across insert batch boundaries and for wide tables', async () => {
    for (const count of [1, 199, 200, 201, 401, 1000]) {
      const lines = ['n,sq'];
      for (let i = 1; i <= count; i++) lines.push(`${i},${i * i}`);
      const result = await loadSeed(db, seedFile('batch.csv', lines.join('\n')));
      expect(result.rows).toBe(count);
      expect(db.prepare('select count(*) as c, sum(n) as s, sum(sq) as q from batch').get()).toEqual({
        c: count,
        s: (count * (count + 1)) / 2,
        q: (count * (count + 1) * (2 * count + 1)) / 6,
      });
    }
    const width = 500;
    const header = Array.from({ length: width }, (_, i) => `c${i}`).join(',');
    const lines = [header];
    for (let r = 0; r < 250; r++) lines.push(Array.from({ length: width }, (_, i) => String(r * width + i)).join(','));
    const result = await loadSeed(db, seedFile('wide.csv', lines.join('\n')));
    expect(result.rows).toBe(250);
    expect(db.prepare('select count(*) as c, sum(c499) as s from wide').get()).toEqual({
      c: 250,
      s: Array.from({ length: 250 }, (_, r) => r * width + 499).reduce((a, b) => a + b, 0),
    });
  });

  it('serializes concurrent loads on one connection', async () => {
    const results = await Promise.all([
      loadSeed(db, seedFile('one.csv', 'a\n1\n')),
      loadSeed(db, seedFile('two.csv', 'b\n2\n3\n')),
      loadSeed(db, seedFile('bad.csv', 'c,d\n1\n')).catch((err: unknown) => err),
      loadSeed(db, seedFile('three.csv', 'c\nx\n')),
    ]);
    expect(results.slice(0, 2).map((r) => (r as { rows: number }).rows)).toEqual([1, 2]);
    expect(results[2]).toBeInstanceOf(ProjectError);
    expect(rows('three')).toEqual([{ c: 'x' }]);
    expect(db.inTransaction).toBe(false);
  });
});

describe('indexes', () => {
  it('creates the indexes on the new table, deterministic names', async () => {
    expect(indexName('orders', { columns: ['a', 'b'] })).toBe('orders__idx__a__b');
    const options = seedFile('orders.csv', 'id,customer,day\n1,7,2024-01-01\n2,7,2024-01-02\n', {
      indexes: [{ columns: ['id'], unique: true }, { columns: ['customer', 'day'] }],
    });
    await loadSeed(db, options);
    const list = () =>
      db.prepare('select name, "unique" from pragma_index_list(?) order by name').all('orders') as { name: string; unique: number }[];
    expect(list()).toEqual([
      { name: 'orders__idx__customer__day', unique: 0 },
      { name: 'orders__idx__id', unique: 1 },
    ]);
    expect(db.prepare('select name from pragma_index_info(?)').values('orders__idx__customer__day')).toEqual(['customer', 'day']);
    await loadSeed(db, options);
    expect(list()).toHaveLength(2);
  });

  it('a unique index violated by the new data fails and keeps the old table and its indexes', async () => {
    const options = seedFile('u.csv', 'id\n1\n2\n', { indexes: [{ columns: ['id'], unique: true }] });
    await loadSeed(db, options);
    const before = { schema: schema(), rows: rows('u') };
    writeFileSync(options.csvPath, 'id\n1\n1\n');
    const err = await loadError(options);
    expect(err.message).toContain("cannot create index 'u__idx__id'");
    expect(err.message).toContain('UNIQUE');
    expect(schema()).toEqual(before.schema);
    expect(rows('u')).toEqual(before.rows);
  });

  it('rejects an index on an unknown column before writing', async () => {
    const err = await loadError(seedFile('i.csv', 'id\n1\n', { indexes: [{ columns: ['idd'] }] }));
    expect(err.message).toContain("'idd'");
    expect(err.message).toContain("Did you mean 'id'?");
    expect(schema()).toEqual([]);
  });
});

describe('transaction', () => {
  it('runs beforeCommit inside the transaction, after the swap', async () => {
    db.exec('create table ledger (seed text, n integer)');
    let seen: unknown;
    await loadSeed(
      db,
      seedFile('led.csv', 'a\n1\n2\n', {
        beforeCommit: (conn) => {
          expect(conn.inTransaction).toBe(true);
          seen = conn.prepare('select count(*) from led').value();
          conn.prepare('insert into ledger values (?, ?)').run('led', seen);
        },
      }),
    );
    expect(seen).toBe(2);
    expect(rows('ledger')).toEqual([{ seed: 'led', n: 2 }]);
  });

  it('a throwing beforeCommit rolls everything back', async () => {
    db.exec('create table ledger (seed text)');
    const options = seedFile('led.csv', 'a\n1\n2\n');
    await loadSeed(db, options);
    const before = { schema: schema(), rows: rows('led') };
    writeFileSync(options.csvPath, 'a,b\n9,9\n');
    await expect(
      loadSeed(db, {
        ...options,
        beforeCommit: (conn) => {
          conn.prepare('insert into ledger values (?)').run('led');
          throw new Error('ledger failed');
        },
      }),
    ).rejects.toThrow('ledger failed');
    expect(db.inTransaction).toBe(false);
    expect(schema()).toEqual(before.schema);
    expect(rows('led')).toEqual(before.rows);
    expect(rows('ledger')).toEqual([]);
  });
});

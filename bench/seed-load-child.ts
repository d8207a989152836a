/**
 * One seed load in a fresh process, for the seed-load figure:
 *
 *   node dist/bench/seed-load-child.js mini-dbt <projectDir> <database>
 *   node dist/bench/seed-load-child.js floor <csvPath> <database>
 *   node dist/bench/seed-load-child.js mini-dbt-pg <projectDir> -
 *   node dist/bench/seed-load-child.js floor-pg <csvPath> <connection JSON>
 *
 * `mini-dbt` loads the project's seeds through the engine (what `mini-dbt
 * seed` does, without artifacts). `floor` is the least work that gets the
 * same CSV into SQLite from Node: lines split on ',' (no quoting, no type
 * inference, no index) into an untyped table through the same 200-row
 * prepared insert, in one transaction. On PostgreSQL (`-pg`): the project's
 * default target is a `type: postgres` one (its profiles.yml), and the floor
 * is the server's own COPY ... (FORMAT csv) of the file into an untyped table
 * (no checks, no index). Prints one JSON line: milliseconds,
 * rows, and the process's peak RSS in KiB.
 */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PostgresConnection } from '../src/engine/postgres/pg-connection.js';
import { run } from '../src/index.js';

const ROWS_PER_INSERT = 200;

async function floorLoad(csvPath: string, database: string): Promise<number> {
  const db = new Database(database);
  db.pragma('journal_mode = WAL');
  db.exec('begin immediate');
  let insert: Database.Statement | undefined;
  let width = 0;
  let params: string[] = [];
  let buffered = 0;
  let rows = 0;
  let rest = '';
  let header = true;
  const flushRows = (count: number) => {
    const stmt = count === ROWS_PER_INSERT ? insert! : db.prepare(insertSql(count, width));
    stmt.run(count === ROWS_PER_INSERT ? params : params.slice(0, count * width));
    rows += count;
    buffered = 0;
  };
  for await (const chunk of createReadStream(csvPath, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const lines = (rest + (chunk as string)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const fields = line.split(',');
      if (header) {
        header = false;
        width = fields.length;
        db.exec(`create table t (${fields.map((f) => `"${f}"`).join(', ')})`);
        insert = db.prepare(insertSql(ROWS_PER_INSERT, width));
        params = new Array<string>(ROWS_PER_INSERT * width);
        continue;
      }
      let p = buffered * width;
      for (let c = 0; c < width; c++) params[p++] = fields[c]!;
      if (++buffered === ROWS_PER_INSERT) flushRows(ROWS_PER_INSERT);
    }
  }
  if (buffered > 0) flushRows(buffered);
  db.exec('commit');
  db.close();
  return rows;
}

function insertSql(rows: number, width: number): string {
  const row = `(${new Array<string>(width).fill('?').join(', ')})`;
  return `insert into t values ${new Array<string>(rows).fill(row).join(', ')}`;
}

/** PostgreSQL's floor: the file streamed into the server's own CSV COPY, into text columns, no index. */
async function pgFloorLoad(csvPath: string, connection: string): Promise<number> {
  const client = new pg.Client(JSON.parse(connection) as pg.ClientConfig);
  await client.connect();
  try {
    const header = await firstLine(csvPath);
    await client.query('begin');
    await client.query('drop table if exists floor_t');
    await client.query(`create table floor_t (${header.split(',').map((f) => `"${f}" text`).join(', ')})`);
    const stream = client.query(copyFrom('copy floor_t from stdin (format csv, header true)'));
    await pipeline(createReadStream(csvPath, { highWaterMark: 1 << 20 }), stream);
    await client.query('commit');
    return Number((stream as unknown as { rowCount: number }).rowCount);
  } finally {
    await client.end();
  }
}

async function firstLine(path: string): Promise<string> {
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 })) return (chunk as string).split('\n')[0]!;
  return '';
}

async function engineLoad(projectDir: string, database: string | undefined): Promise<number> {
  const result = await run({ projectDir, ...(database === undefined ? { profilesDir: projectDir } : { database }), command: 'seed', writeArtifacts: false });
  if (result.exitCode !== 0) throw new Error(`seed failed: ${result.results.map((r) => r.message).join('; ')}`);
  return result.results.reduce((n, r) => n + (r.rowsInserted ?? 0), 0);
}

const [mode, input, database] = process.argv.slice(2);
if (!input || !database || !['mini-dbt', 'floor', 'mini-dbt-pg', 'floor-pg'].includes(mode ?? '')) {
  process.stderr.write('usage: seed-load-child.js mini-dbt|floor|mini-dbt-pg|floor-pg <projectDir|csvPath> <database|connection JSON|->\n');
  process.exit(2);
}
/** On PostgreSQL: the time spent waiting on the COPY (the batches the server had not taken yet) and on its CREATE INDEXes, for the figure's profile. */
const phases = { copyMs: 0, indexMs: 0 };
if (mode === 'mini-dbt-pg') {
  const waited = <T>(call: () => T): T => {
    const t = performance.now();
    try {
      return call();
    } finally {
      phases.copyMs += performance.now() - t;
    }
  };
  const proto = PostgresConnection.prototype;
  const copyIn = proto.copyIn;
  proto.copyIn = function (this: PostgresConnection, ...args: Parameters<typeof copyIn>) {
    const load = waited(() => copyIn.apply(this, args));
    return { write: (chunks: readonly string[]) => waited(() => load.write(chunks)), end: () => waited(() => load.end()) };
  };
  const exec = proto.exec;
  proto.exec = function (this: PostgresConnection, sql: string) {
    const t = performance.now();
    try {
      exec.call(this, sql);
    } finally {
      if (/^\s*create\s+(unique\s+)?index\b/i.test(sql)) phases.indexMs += performance.now() - t;
    }
  };
}
const t0 = performance.now();
const loads: Record<string, () => Promise<number>> = {
  floor: () => floorLoad(input, database),
  'mini-dbt': () => engineLoad(input, database),
  'floor-pg': () => pgFloorLoad(input, database),
  'mini-dbt-pg': () => engineLoad(input, undefined),
};
const rows = await loads[mode!]!();
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, rows, maxRssKiB: process.resourceUsage().maxRSS, ...(mode === 'mini-dbt-pg' ? phases : {}) })}\n`);

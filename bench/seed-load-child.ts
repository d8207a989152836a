/**
 * One seed load in a fresh process, for the seed-load figure:
 *
 *   node dist/bench/seed-load-child.js mini-dbt <projectDir> <database>
 *   node dist/bench/seed-load-child.js floor <csvPath> <database>
 *
 * `mini-dbt` loads the project's seeds through the engine (what `mini-dbt
 * seed` does, without artifacts). `floor` is the least work that gets the
 * same CSV into SQLite from Node: lines split on ',' (no quoting, no type
 * inference, no index) into an untyped table through the same 200-row
 * prepared insert, in one transaction. Prints one JSON line: milliseconds,
 * rows, and the process's peak RSS in KiB.
 */
import { createReadStream } from 'node:fs';
import Database from 'better-sqlite3';
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

async function engineLoad(projectDir: string, database: string): Promise<number> {
  const result = await run({ projectDir, database, command: 'seed', writeArtifacts: false });
  if (result.exitCode !== 0) throw new Error(`seed failed: ${result.results.map((r) => r.message).join('; ')}`);
  return result.results.reduce((n, r) => n + (r.rowsInserted ?? 0), 0);
}

const [mode, input, database] = process.argv.slice(2);
if (!input || !database || (mode !== 'mini-dbt' && mode !== 'floor')) {
  process.stderr.write('usage: seed-load-child.js mini-dbt|floor <projectDir|csvPath> <database>\n');
  process.exit(2);
}
const t0 = performance.now();
const rows = mode === 'floor' ? await floorLoad(input, database) : await engineLoad(input, database);
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, rows, maxRssKiB: process.resourceUsage().maxRSS })}\n`);

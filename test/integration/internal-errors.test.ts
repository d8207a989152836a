/**
 * Inputs that used to crash mini-dbt with a stack ("Internal error") or hang
 * it: each now gives one clear message (or is skipped with a warning), the
 * right exit code, and leaves the warehouse exactly as it was.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { builtExample } from '../support/built-example.js';
import { cliLanes } from '../support/cli-lanes.js';
import { runCli, runCliAsync, type CliResult } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const builtCopy = builtExample();

const noStack = (r: CliResult) => expect(r.stderr).not.toMatch(/Internal error|\n\s+at .*\.js:\d+/);

/** Run the CLI on `dir` and check the warehouse did not change. */
function unchanged(dir: string, args: readonly string[]): CliResult {
  const db = join(dir, 'warehouse.db');
  const before = warehouseSnapshot(db);
  const r = runCli([...args, '--project-dir', dir]);
  noStack(r);
  expect(warehouseSnapshot(db)).toEqual(before);
  return r;
}

/** unchanged(), the CLI as a child process the test awaits (for concurrent tests). */
async function unchangedAsync(dir: string, args: readonly string[]): Promise<CliResult> {
  const db = join(dir, 'warehouse.db');
  const before = warehouseSnapshot(db);
  const r = await runCliAsync([...args, '--project-dir', dir]);
  noStack(r);
  expect(warehouseSnapshot(db)).toEqual(before);
  return r;
}

/** Two tests' CLIs at once where a describe's cases are independent (each on its own copy). */
const lane = cliLanes(2);

/** Nested anchors: 9 aliases per level, 9 levels deep (9^9 nodes expanded). */
function aliasBomb(indent: string): string {
  const lines = [`${indent}a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]`];
  for (let i = 1; i < 10; i++) lines.push(`${indent}a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

describe('the project file and YAML', () => {
  it('a project.yml (or dbt_project.yml) that is a directory: one message, exit 2', () => {
    for (const file of ['project.yml', 'dbt_project.yml']) {
      const dir = builtCopy();
      rmSync(join(dir, 'project.yml'));
      mkdirSync(join(dir, file));
      const r = unchanged(dir, ['run']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file}: it is a directory, not a YAML file`);
    }
  });

  it('alias bombs in project.yml, a property yml, --vars and fromyaml() stop fast with file:line, without eating memory', () => {
    const project = builtCopy();
    writeFileSync(join(project, 'project.yml'), `name: brightcart\ndatabase: warehouse.db\nvars:\n${aliasBomb('  ')}\n`);
    const started = Date.now();
    const a = unchanged(project, ['run']);
    expect(a.code).toBe(2);
    // a2 is the first anchor made of aliases that are themselves made of aliases.
    expect(a.stderr).toContain('project.yml:6: YAML aliases expand to too many nodes (the limit is 100)');

    const props = builtCopy();
    writeFileSync(join(props, 'models', 'bomb.yml'), `version: 2\nx:\n${aliasBomb('  ')}\n`);
    const b = unchanged(props, ['run']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('models/bomb.yml:5: YAML aliases expand to too many nodes');

    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((l, i) => `${l}: &${l} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)];
    const c = unchanged(builtCopy(), ['run', '--vars', `{${levels.join(', ')}}`]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--vars: YAML aliases expand to too many nodes');

    const fromyaml = builtCopy();
    writeFileSync(join(fromyaml, 'models', 'marts', 'monthly_revenue.sql'), `{% set v = fromyaml(${JSON.stringify(levels.join('\n'))}) %}select 1 as a\n`);
    const d = unchanged(fromyaml, ['run', '-s', 'monthly_revenue']);
    expect(d.code).toBe(2);
    expect(`${d.stdout}${d.stderr}`).toContain('fromyaml(): YAML aliases expand to too many nodes');
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('target/ that cannot be written, corrupt files in it', () => {
  it('target/ is a file: the publish happened, the message says so, exit 2, no temp file left', () => {
    const dir = builtCopy();
    writeFileSync(join(dir, 'target'), 'not a folder');
    const r = unchanged(dir, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the run is over and what it built is committed to the warehouse; writing target/compiled/brightcart/models/marts/daily_revenue.sql failed: ENOTDIR: not a directory');
    // The run was recorded as a success in the ledger: it was published.
    const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
    expect(db.prepare('select status from _mini_dbt_runs order by rowid desc limit 1').pluck().get()).toBe('success');
    db.close();
  });

  it('run_results.json is a folder: the seeds were loaded, the message names the file; no temp files', () => {
    const dir = builtCopy();
    mkdirSync(join(dir, 'target', 'run_results.json'), { recursive: true });
    const r = unchanged(dir, ['seed']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('writing target/run_results.json failed: EISDIR');
    expect(readdirSync(join(dir, 'target')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('docs generate into a target/ that is a file: one message, exit 2', () => {
    const dir = builtCopy();
    writeFileSync(join(dir, 'target'), 'x');
    const r = unchanged(dir, ['docs', 'generate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('writing target/index.html failed:');
  });

  it.concurrent.for([
    ['truncated', '{"format": 3, "projectKey": "ab'],
    ['binary garbage', '\u0000\u00ff\u0001PK\u0003\u0004'],
    ['wrong shape', JSON.stringify({ format: 3, projectKey: 'k', models: { daily_revenue: { key: 'k', capture: { refs: 5 } } }, yaml: null })],
  ])('a corrupt parse cache (%s) is ignored with one warning and rebuilt', ([, text], { expect }) => lane(async () => {
    const dir = builtCopy();
    mkdirSync(join(dir, 'target'), { recursive: true });
    writeFileSync(join(dir, 'target', 'partial_parse.json'), text!);
    const r = await runCliAsync(['ls', '--project-dir', dir]);
    noStack(r);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Warning: ignoring the parse cache target\/partial_parse\.json: .+; it is rebuilt from the project files$/m);
    expect(r.stdout).toContain('brightcart.marts.daily_revenue');
    // Rebuilt: the next load reads it without a warning.
    const again = await runCliAsync(['ls', '--project-dir', dir]);
    expect(again.stderr).not.toContain('Warning');
    expect(JSON.parse(readFileSync(join(dir, 'target', 'partial_parse.json'), 'utf8')).format).toBe(3);
  }));

  it.concurrent.for([
    ['truncated', '{"results": [{"unique_id": "model.brightcart.daily_revenue", "sta', 'it is not valid JSON'],
    ['binary garbage', '\u0000\u00ff\u0001', 'it is not valid JSON'],
    ['wrong shape', JSON.stringify({ results: [{ unique_id: 5, status: 'error' }] }), 'results[0] has no unique_id and status'],
    ['bad batches', JSON.stringify({ results: [{ unique_id: 'model.brightcart.daily_revenue', status: 'error', batch_results: { failed: 'x' } }] }), 'batch_results is malformed'],
  ])('retry on a corrupt run_results.json (%s): ignored, one message, exit 2', ([, text, problem], { expect }) => lane(async () => {
    const dir = builtCopy();
    mkdirSync(join(dir, 'target'), { recursive: true });
    writeFileSync(join(dir, 'target', 'run_results.json'), text!);
    const r = await unchangedAsync(dir, ['retry']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to retry: target/run_results.json is ignored: it is');
    expect(r.stderr).toContain(problem);
    // docs generate only loses the test statuses, with a warning.
    const docs = await runCliAsync(['docs', 'generate', '--project-dir', dir]);
    expect(docs.code).toBe(0);
    expect(docs.stderr).toContain('Warning: ignoring target/run_results.json (the test statuses of the last run)');
  }));
});

describe('odd entries in project folders', () => {
  it('FIFOs, dangling symlinks, symlink loops and symlinked folders are skipped with a warning each; never block', () => {
    const dir = builtCopy();
    mkdirSync(join(dir, 'tests'), { recursive: true });
    for (const fifo of ['models/pipe.sql', 'macros/pipe.sql', 'seeds/pipe.csv', 'tests/pipe.sql', 'models/pipe.yml']) {
      expect(spawnSync('mkfifo', [join(dir, fifo)]).status).toBe(0);
    }
    symlinkSync(join(dir, 'nowhere.sql'), join(dir, 'models', 'dangling.sql'));
    symlinkSync('loop.sql', join(dir, 'models', 'loop.sql'));
    symlinkSync(join(dir, 'models'), join(dir, 'models', 'folder.sql'));
    // A symlink to a real file is that file (the seed benchmark links its CSV this way).
    symlinkSync(join(dir, 'models', 'marts', 'monthly_revenue.sql'), join(dir, 'models', 'linked.sql'));
    const r = runCli(['build', '--project-dir', dir]);
    noStack(r);
    expect(r.code).toBe(0);
    for (const expected of [
      'skipping models/pipe.sql: it is a named pipe (FIFO), not a file',
      'skipping macros/pipe.sql: it is a named pipe (FIFO), not a file',
      'skipping seeds/pipe.csv: it is a named pipe (FIFO), not a file',
      'skipping tests/pipe.sql: it is a named pipe (FIFO), not a file',
      'skipping models/pipe.yml: it is a named pipe (FIFO), not a file',
      'skipping models/dangling.sql: it is a symlink to nothing (dangling), not a file',
      'skipping models/loop.sql: it is a symlink loop, not a file',
      'skipping models/folder.sql: it is a symlink to a directory, not a file',
    ]) expect(r.stderr).toContain(`Warning: ${expected}`);
    expect(r.stdout).toMatch(/OK created sql view model main\.linked/);
  });
});

describe('replay --keep and docs serve', () => {
  /** One copy with its docs generated, for the docs serve cases (they only read target/). */
  let generated = '';
  const docsGenerated = (): string => {
    if (generated === '') {
      generated = builtCopy();
      expect(runCli(['docs', 'generate', '--project-dir', generated]).code).toBe(0);
    }
    return generated;
  };

  it('replay --keep into folders that do not exist yet creates them; a file on the way or an existing folder is refused before replaying', () => {
    const dir = builtCopy();
    const keep = join(dir, 'out', 'nights', 'sim.db');
    const replay = (target: string) => runCli(['replay', 'daily_revenue', '--from', '2026-09-05', '--to', '2026-09-06', '--keep', target, '--project-dir', dir]);
    const ok = replay(keep);
    noStack(ok);
    expect(ok.code).toBe(0);
    expect(existsSync(keep)).toBe(true);
    const underFile = replay(join(dir, 'project.yml', 'sim.db'));
    expect(underFile.code).toBe(2);
    expect(underFile.stderr).toContain(`${join(dir, 'project.yml')} is a file, not a folder`);
    const folder = replay(join(dir, 'out'));
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('is a folder; name a new file in it');
  });

  it('docs serve on a busy port: "port N is in use; try --port N+1", exit 2', async () => {
    const dir = docsGenerated();
    const holder: Server = createServer();
    const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
    try {
      const r = await runCliAsync(['docs', 'serve', '--port', String(port), '--project-dir', dir]);
      noStack(r);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} is in use; try --port ${port + 1}`);
    } finally {
      holder.close();
    }
  });

  it('docs serve answers a malformed URL with 400 instead of crashing', async () => {
    const dir = docsGenerated();
    const { serveDocs } = await import('../../src/docs/serve-docs.js');
    const { server, url } = await serveDocs(join(dir, 'target'), { port: 0 });
    try {
      expect((await fetch(`${url}%E0%A4%A`)).status).toBe(400);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe('absurd dates and huge values in raw rows', () => {
  const absurd: [string, unknown][] = [
    ['year 99999', '99999-01-01'],
    ['9999-99-99', '9999-99-99'],
    ['a number', 12345],
    ['a blob', Buffer.from([0, 0xff])],
    ['year 0', '0000-01-01'],
    ['year 1000', '1000-01-01'],
    // Huge next to what it guards: 100 times the 20,000 characters the output may have, 50,000 times the
    // 40-character preview a value is cut to (src/errors/value-preview.ts), and above spawnSync's 1 MiB
    // output buffer; 10 MB asserted nothing more and took 7.5 s of a loaded run.
    ['2 MB', 'x'.repeat(2_000_000)],
  ];
  it.concurrent.for(absurd)('%s in the loaded-at and event columns: lateness, stale and history finish, print kilobytes, never a stack', ([, value], { expect }) => lane(async () => {
    const dir = builtCopy();
    const db = new Database(join(dir, 'warehouse.db'));
    db.prepare("insert into raw_orders values (?, 900001, '2026-09-01', 'delivered', 1)").run(value);
    db.prepare("insert into raw_orders values ('2026-10-10', 900002, ?, 'delivered', 1)").run(value);
    db.close();
    for (const args of [['lateness', 'raw_orders', '--by', 'order_date'], ['stale', 'daily_revenue'], ['stale', 'daily_revenue', '--fast'], ['history', 'daily_revenue']]) {
      const r = await unchangedAsync(dir, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout.length + r.stderr.length, args.join(' ')).toBeLessThan(20_000);
    }
    const lateness = await runCliAsync(['lateness', 'raw_orders', '--json', '--project-dir', dir]);
    const report = JSON.parse(lateness.stdout) as { invalid_rows: number; histogram: unknown[] };
    // Years 1000-9999 are dates (a row of year 1000 is 374,000 days late, listed as one bin, not 374,000); the rest are invalid.
    expect(report.invalid_rows).toBe(value === '1000-01-01' ? 0 : 2);
    expect(report.histogram.length).toBeLessThan(200);
    // A run then records the row's loaded-at as its as-of (dbt's behaviour for max(load_date)); the printout shows a preview.
    const run = await runCliAsync(['run', '-s', 'daily_revenue', '--project-dir', dir]);
    expect(run.stdout.length).toBeLessThan(20_000);
  }));
});

/**
 * replay's scratch schema on PostgreSQL: kept with --keep as a new schema,
 * dropped after a replay that fails, refused when a node's schema does not
 * follow the target's (a run there would write the live schema), dropped
 * when the command is interrupted.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { replay } from '../../src/index.js';
import { CLI } from '../support/example-project.js';
import { describePg, freshPgDatabase, type PgTestTarget } from '../support/pg-test-database.js';
import { runNightly, scratchSchemasLeft, toolkitExample, type ToolkitExample } from '../support/toolkit-example.js';

describePg("replay's scratch schema on PostgreSQL", () => {
  let target: PgTestTarget;
  let example: ToolkitExample;
  const schemas = () => example.rows<{ name: string }>(`select nspname as name from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1`).map((r) => r.name);
  const liveRows = () => example.rows(`select * from daily_revenue order by order_date`);

  beforeAll(async () => {
    target = await freshPgDatabase('replay_scratch');
    example = toolkitExample({ kind: 'pg', target });
    await runNightly(example, { from: '2026-10-29', to: '2026-10-31', lookback: 3 });
  }, 120_000);
  afterAll(async () => {
    await target.drop();
  });

  it('--keep saves the simulated warehouse as a new schema (its table and its ledger); the scratch schema goes', async () => {
    const result = await replay({ ...example.options, model: 'daily_revenue', from: '2026-10-30', to: '2026-10-31', compareRequired: false, keepAs: 'kept_replay' });
    expect(result.kept_as).toBe('kept_replay');
    expect(schemas()).toEqual(['kept_replay', 'public']);
    expect(example.rows(`select count(*) as n from kept_replay.daily_revenue`)).toEqual([{ n: 61 }]);
    // The kept ledger holds the replay's runs: the full build as of 2026-10-29 and the two nights.
    expect(example.rows(`select n.as_of from kept_replay._mini_dbt_node_runs n join kept_replay._mini_dbt_runs r on r.invocation_id = n.invocation_id where r.command = 'run' and n.model = 'daily_revenue' order by n.id desc limit 3`).map((r) => r.as_of))
      .toEqual(['2026-10-31', '2026-10-30', '2026-10-29']);
  }, 120_000);

  it('--keep names a new schema: an existing one (E198) or a name that is no plain identifier (E197) is refused before anything runs', async () => {
    await expect(replay({ ...example.options, model: 'daily_revenue', from: '2026-10-30', to: '2026-10-31', keepAs: 'public' })).rejects.toThrow(/--keep public: schema 'public' exists in postgres:\/\/.*(target's schema).*name a new schema/);
    await expect(replay({ ...example.options, model: 'daily_revenue', from: '2026-10-30', to: '2026-10-31', keepAs: 'out/replay.db' })).rejects.toThrow(/kept as a new schema of the database, and 'out\/replay.db' cannot name one/);
    expect(scratchSchemasLeft(example, { kind: 'pg', target })).toEqual([]);
  });

  it('a replay whose run fails drops its scratch schema; the live table is as it was', async () => {
    const before = liveRows();
    appendFileSync(join(example.dir, 'models', 'marts', 'daily_revenue.sql'), '\n-- broken on purpose\nhaving no_such_column > 0\n');
    try {
      await expect(replay({ ...example.options, model: 'daily_revenue', from: '2026-10-30', to: '2026-10-31' })).rejects.toThrow(/replay: the run .* failed on daily_revenue/);
    } finally {
      writeFileSync(join(example.dir, 'models', 'marts', 'daily_revenue.sql'), readBack(example.dir));
    }
    expect(scratchSchemasLeft(example, { kind: 'pg', target })).toEqual([]);
    expect(liveRows()).toEqual(before);
  }, 120_000);

  it('an interrupted replay (SIGINT) drops its scratch schema before it exits (130); the live table is as it was', async () => {
    const before = liveRows();
    const child = spawn(process.execPath, [CLI, 'replay', 'daily_revenue', '--from', '2026-09-02', '--to', '2026-10-31', '--project-dir', example.dir, '--profile', 'brightcart', '--target', 'pg'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 60_000;
    while (scratchSchemasLeft(example, { kind: 'pg', target }).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(scratchSchemasLeft(example, { kind: 'pg', target })).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(scratchSchemasLeft(example, { kind: 'pg', target })).toEqual([]);
    expect(liveRows()).toEqual(before);
  }, 120_000);

  it('a replay killed outright (SIGKILL: no handler runs) leaves its scratch schema; the next replay drops it, its process being gone', async () => {
    const child = spawn(process.execPath, [CLI, 'replay', 'daily_revenue', '--from', '2026-09-02', '--to', '2026-10-31', '--project-dir', example.dir, '--profile', 'brightcart', '--target', 'pg'], { stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const deadline = Date.now() + 60_000;
    while (scratchSchemasLeft(example, { kind: 'pg', target }).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGKILL');
    await exited;
    const orphan = scratchSchemasLeft(example, { kind: 'pg', target });
    expect(orphan).toHaveLength(1);
    expect(example.rows<{ owner: string }>(`select obj_description(oid, 'pg_namespace') as owner from pg_namespace where nspname = '${orphan[0]}'`)[0]!.owner).toContain(`"pid":${child.pid}`);
    await replay({ ...example.options, model: 'daily_revenue', from: '2026-10-31', to: '2026-10-31', compareRequired: false });
    expect(scratchSchemasLeft(example, { kind: 'pg', target })).toEqual([]);
  }, 120_000);

  it("a node built in a schema that ignores the target's is refused (E196): a scratch run would write the live schema", async () => {
    writeFileSync(join(example.dir, 'macros', 'fixed_schema.sql'), '{% macro generate_schema_name(custom_schema_name, node) %}fixed_place{% endmacro %}\n');
    await expect(replay({ ...example.options, model: 'daily_revenue', from: '2026-10-30', to: '2026-10-31' })).rejects.toThrow(/is built in schema 'fixed_place' whatever the target's schema is, so a run on a scratch copy would write the live one/);
    expect(scratchSchemasLeft(example, { kind: 'pg', target })).toEqual([]);
    expect(schemas()).toEqual(['kept_replay', 'public']);
  });
});

/** daily_revenue.sql without the lines the failure test appended. */
function readBack(dir: string): string {
  const text = readFileSync(join(dir, 'models', 'marts', 'daily_revenue.sql'), 'utf8');
  return text.slice(0, text.indexOf('\n-- broken on purpose'));
}

import { expect, it } from 'vitest';
import type { RunResult } from '../../src/api/run.js';
import { runCli } from '../support/run-cli.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): an incremental model under every form of
 * unique_key, as dbt-tests-adapter's incremental/test_incremental_unique_id.py
 * drives it: seed, build the model with --full-refresh, change the seed
 * (two new rows, or a later version of an existing one), run again, and
 * compare the model's table with the relation dbt expects (the seed itself,
 * or an `expected` table). Each case then runs --full-refresh once more: a
 * full build ignores the key and rebuilds the table from the current seed.
 */

const VISITS = `state,county,city,last_visit_date
CT,Hartford,Hartford,2020-09-23
MA,Suffolk,Boston,2020-02-12
NJ,Mercer,Trenton,2022-01-01
NY,Kings,Brooklyn,2021-04-02
NY,New York,Manhattan,2021-04-01
PA,Philadelphia,Philadelphia,2021-05-21
CO,Denver,,2021-06-18
`;

/** The seed after a later visit to Hartford: a keyed model overwrites the CT row with it. */
const EXPECTED_OVERWRITE = `state,county,city,last_visit_date
CT,Hartford,Hartford,2022-02-14
MA,Suffolk,Boston,2020-02-12
NJ,Mercer,Trenton,2022-01-01
NY,Kings,Brooklyn,2021-04-02
NY,New York,Manhattan,2021-04-01
PA,Philadelphia,Philadelphia,2021-05-21
CO,Denver,,2021-06-18
`;

const ADD_NEW_ROWS = `insert into visits (state, county, city, last_visit_date) values
  ('WA', 'King', 'Seattle', '2022-02-01'), ('CA', 'Los Angeles', 'Los Angeles', '2022-02-01')`;
const LATER_VISIT = `insert into visits (state, county, city, last_visit_date) values ('CT', 'Hartford', 'Hartford', '2022-02-14')`;

/** The model dbt's fixtures use: every column of the seed, and only rows later than the table's latest on an incremental run. */
function visitsModel(config: string): string {
  return `{{ config(materialized='incremental'${config}) }}
select state, county, city, last_visit_date from {{ ref('visits') }}
{% if is_incremental() %}
  where last_visit_date > (select max(last_visit_date) from {{ this }})
{% endif %}
`;
}

const projectOn = (engine: EngineName) => function project(config: string, extra: Record<string, string> = {}): MiniProject {
  return miniProject({
    'seeds/visits.csv': VISITS,
    'seeds/expected_overwrite.csv': EXPECTED_OVERWRITE,
    'models/visits_inc.sql': visitsModel(config),
    ...extra,
  }, undefined, { engine });
};

function succeeded(result: RunResult, names: readonly string[]): void {
  expect(result.results.map((r) => `${r.name}:${r.status}${r.status === 'success' ? '' : ` ${r.message}`}`)).toEqual(names.map((n) => `${n}:success`));
  expect(result.exitCode).toBe(0);
}

/** dbt's get_test_fields: seed afresh, build the model afresh, change the seed, run the model incrementally. */
async function scenario(p: MiniProject, change: string): Promise<RunResult> {
  succeeded(await p.build({ command: 'seed', fullRefresh: true }), ['expected_overwrite', 'visits']);
  const full = await p.build({ select: ['visits_inc'], fullRefresh: true });
  succeeded(full, ['visits_inc']);
  expect(full.results[0]!.plan!.mode).toBe('full');
  p.exec(change);
  const incremental = await p.build({ select: ['visits_inc'] });
  succeeded(incremental, ['visits_inc']);
  expect(incremental.results[0]!.plan!.mode).toBe('incremental');
  return incremental;
}

/** A full refresh ignores the key: the table is the model's SELECT over the current seed, row for row. */
async function expectFullRefreshRebuildsFromSeed(p: MiniProject): Promise<void> {
  const again = await p.build({ select: ['visits_inc'], fullRefresh: true });
  succeeded(again, ['visits_inc']);
  expect(again.results[0]!.plan!.mode).toBe('full');
  expect(p.rows('visits_inc')).toEqual(p.rows('visits'));
}

const KEYLESS = [
  ['no unique_key', ''],
  ["unique_key ''", ", unique_key=''"],
  ['unique_key []', ', unique_key=[]'],
] as const;

const KEYED = [
  ["unique_key 'state' (a string)", ", unique_key='state'"],
  ["unique_key ['state'] (a one-column list)", ", unique_key=['state']"],
  ["unique_key ['state', 'state'] (a column listed twice)", ", unique_key=['state', 'state']"],
  ["unique_key ['state', 'county', 'city'] (three columns)", ", unique_key=['state', 'county', 'city']"],
] as const;

describeEachEngine('new rows land in the seed: under every unique_key the model ends equal to the seed (test__no_unique_keys, test__empty_str_unique_key, test__empty_unique_key_list, test__trinary_unique_key_list_no_update)', (engine) => {
  const project = projectOn(engine);
  for (const [label, config] of [...KEYLESS, ...KEYED]) {
    it(`${label}: the incremental run adds the two new rows; --full-refresh rebuilds the same rows`, async () => {
      const p = project(config);
      await scenario(p, ADD_NEW_ROWS);
      expect(p.rows('visits')).toHaveLength(9);
      expect(p.rows('visits_inc')).toEqual(p.rows('visits'));
      await expectFullRefreshRebuildsFromSeed(p);
    });
  }
});

describeEachEngine('a later version of an existing row lands: a key overwrites it in place, no key appends it (test__one_unique_key, test__unary_unique_key_list, test__duplicated_unary_unique_key_list, test__trinary_unique_key_list)', (engine) => {
  const project = projectOn(engine);
  for (const [label, config] of KEYED) {
    it(`${label}: the CT row is replaced (the table equals the expected one); --full-refresh then holds both CT visits, as the seed does`, async () => {
      const p = project(config);
      const run = await scenario(p, LATER_VISIT);
      expect(p.rows('visits')).toHaveLength(8);
      expect(run.results[0]!.rowsDeleted).toBe(1);
      expect(p.rows('visits_inc')).toEqual(p.rows('expected_overwrite'));
      await expectFullRefreshRebuildsFromSeed(p);
      expect(p.rows('visits_inc').filter((r) => r.state === 'CT')).toHaveLength(2);
    });
  }

  for (const [label, config] of KEYLESS) {
    it(`${label}: nothing is deleted, the later CT visit is added next to the first (the table equals the seed)`, async () => {
      const p = project(config);
      const run = await scenario(p, LATER_VISIT);
      expect(run.results[0]!.rowsDeleted).toBe(0);
      expect(p.rows('visits_inc')).toEqual(p.rows('visits'));
      expect(p.rows('visits_inc').filter((r) => r.state === 'CT').map((r) => r.last_visit_date)).toEqual(['2020-09-23', '2022-02-14']);
      await expectFullRefreshRebuildsFromSeed(p);
    });
  }

  it("append with unique_key 'state': the key changes nothing, the later CT visit is added next to the first (dbt's append ignores it)", async () => {
    const p = project(", unique_key='state', incremental_strategy='append'");
    const run = await scenario(p, LATER_VISIT);
    expect(run.results[0]!.plan!.strategy).toBe('append');
    expect(run.results[0]!.rowsDeleted).toBe(0);
    expect(p.rows('visits_inc')).toEqual(p.rows('visits'));
  });

  it("a key that repeats in the table: one new row replaces every row with its key (unique_key 'state' and a later NY visit)", async () => {
    const p = project(", unique_key='state'");
    await scenario(p, "insert into visits values ('NY', 'Queens', 'Flushing', '2022-03-01')");
    const ny = p.rows('visits_inc').filter((r) => r.state === 'NY');
    expect(ny).toEqual([{ state: 'NY', county: 'Queens', city: 'Flushing', last_visit_date: '2022-03-01' }]);
    expect(p.rows('visits_inc')).toHaveLength(6);
  });

  for (const [strategy, key] of [['delete+insert', "'STATE'"], ['merge', "['STATE', 'County', 'city']"]] as const) {
    it(`${strategy}: a key written in another case than its columns (unique_key ${key}) names those columns, as SQL names are case-insensitive`, async () => {
      const p = project(`, unique_key=${key}, incremental_strategy='${strategy}'`);
      const run = await scenario(p, LATER_VISIT);
      expect(run.results[0]!.plan!.notes ?? []).toEqual([]);
      expect(p.rows('visits_inc')).toEqual(p.rows('expected_overwrite'));
    });
  }

  it('two new rows with the same key: delete+insert writes both (dbt checks no uniqueness there)', async () => {
    const p = project(", unique_key='state'");
    await scenario(p, "insert into visits values ('CT', 'Hartford', 'Hartford', '2022-02-14'), ('CT', 'New Haven', 'New Haven', '2022-02-15')");
    expect(p.rows('visits_inc').filter((r) => r.state === 'CT').map((r) => r.county)).toEqual(['Hartford', 'New Haven']);
    expect(p.rows('visits_inc')).toHaveLength(8);
  });
});

describeEachEngine('a NULL in a key column: NULL equals nothing, so the old row is never replaced and both are kept, as in dbt', (engine) => {
  const project = projectOn(engine);
  const laterDenver = "insert into visits values ('CO', 'Denver', null, '2022-03-01')";

  for (const strategy of ['delete+insert', 'merge'] as const) {
    it(`${strategy} on ['state', 'county', 'city']: a later visit with the same NULL city is added next to the old one, with a warning counting it`, async () => {
      const p = project(`, unique_key=['state', 'county', 'city'], incremental_strategy='${strategy}'`);
      const logs: string[] = [];
      succeeded(await p.build({ command: 'seed' }), ['expected_overwrite', 'visits']);
      succeeded(await p.build({ select: ['visits_inc'], fullRefresh: true }), ['visits_inc']);
      p.exec(laterDenver);
      succeeded(await p.build({ select: ['visits_inc'], onEvent: (e) => { if (e.type === 'log') logs.push(e.message); } }), ['visits_inc']);
      expect(p.rows('visits_inc').filter((r) => r.state === 'CO').map((r) => r.last_visit_date)).toEqual(['2021-06-18', '2022-03-01']);
      expect(p.rows('visits_inc')).toEqual(p.rows('visits'));
      expect(logs.join('\n')).toMatch(/1 rows? ha(s|ve) NULL in unique_key column 'city'/);
      await expectFullRefreshRebuildsFromSeed(p);
    });
  }

  it("mini-dbt's opt-in unique_key_nulls: error refuses a publish holding a NULL key instead: the model errors, exit 1, nothing is written", async () => {
    const p = project(", unique_key=['state', 'county', 'city'], unique_key_nulls='error'");
    succeeded(await p.build({ command: 'seed' }), ['expected_overwrite', 'visits']);
    const refused = await p.build({ select: ['visits_inc'] });
    expect(refused.exitCode).toBe(1);
    expect(refused.results[0]!.status).toBe('error');
    expect(refused.results[0]!.message).toContain("NULL in unique_key column 'city'");
    expect(p.columns('visits_inc')).toEqual([]);
  });
});

describeEachEngine('a unique_key column the model does not produce (test__bad_unique_key, test__bad_unique_key_list): beyond the cases of node-errors-and-unique-key.test.ts', (engine) => {
  const project = projectOn(engine);
  it('a plain first run (no --full-refresh) ignores the key too, and --full-refresh after the failed incremental run rebuilds the table', async () => {
    const p = project(", unique_key=['state', 'thisisnotacolumn']");
    succeeded(await p.build({ command: 'seed' }), ['expected_overwrite', 'visits']);
    succeeded(await p.build({ select: ['visits_inc'] }), ['visits_inc']);
    expect(p.rows('visits_inc')).toEqual(p.rows('visits'));
    p.exec(ADD_NEW_ROWS);
    const failed = await p.build({ select: ['visits_inc'] });
    expect(failed.exitCode).toBe(1);
    expect(failed.results[0]!.status).toBe('error');
    expect(failed.results[0]!.message.toLowerCase()).toContain('thisisnotacolumn');
    expect(p.rows('visits_inc')).toHaveLength(7);
    await expectFullRefreshRebuildsFromSeed(p);
    expect(p.rows('visits_inc')).toHaveLength(9);
  });

  it("select * with a key it lacks (dbt's not_found_unique_key fixture), through the CLI: seed and run --full-refresh exit 0, the incremental run exits 1 and names the column", () => {
    const p = miniProject({
      'seeds/visits.csv': VISITS,
      'models/not_found.sql': "{{ config(materialized='incremental', unique_key='thisisnotacolumn') }}\nselect * from {{ ref('visits') }}\n{% if is_incremental() %} where last_visit_date > (select max(last_visit_date) from {{ this }}) {% endif %}\n",
    }, undefined, { engine });
    expect(runCli(['seed', '--project-dir', p.dir]).code).toBe(0);
    const full = runCli(['run', '--select', 'not_found', '--full-refresh', '--project-dir', p.dir]);
    expect(full.code, full.stderr + full.stdout).toBe(0);
    expect(p.rows('not_found')).toEqual(p.rows('visits'));
    p.exec(ADD_NEW_ROWS);
    const incremental = runCli(['run', '--select', 'not_found', '--project-dir', p.dir]);
    expect(incremental.code, incremental.stderr + incremental.stdout).toBe(1);
    expect(incremental.stdout.toLowerCase()).toContain('thisisnotacolumn');
    expect(p.rows('not_found')).toHaveLength(7);
  });
});

describeEachEngine('a unique_key that is an SQL expression (dbt documents unique_key as "a column name or expression")', (engine) => {
  const project = projectOn(engine);
  // dbt pastes the key into its delete SQL as written: `(state || county) in (select state || county from new rows)`.
  it("unique_key='state || county': the incremental run replaces the rows whose expression value is among the new rows", async () => {
    const p = project(", incremental_strategy='delete+insert', unique_key='state || county'");
    await scenario(p, LATER_VISIT);
    expect(p.rows('visits_inc', 'state, county')).toEqual(p.rows('expected_overwrite', 'state, county'));
    // No index on an expression key, and no "column not produced" check for it.
    expect(p.rows('sqlite_master', 'name').filter((o) => o.type === 'index' && o.tbl_name === 'visits_inc')).toEqual([]);
  });

  it("merge refuses an expression key with a clear message (dbt's merge would prefix it with its alias and fail), the table unchanged", async () => {
    const p = project(", incremental_strategy='merge', unique_key='state || county'");
    succeeded(await p.build({ command: 'seed', fullRefresh: true }), ['expected_overwrite', 'visits']);
    succeeded(await p.build({ select: ['visits_inc'], fullRefresh: true }), ['visits_inc']);
    const before = p.rows('visits_inc');
    p.exec(LATER_VISIT);
    const run = await p.build({ select: ['visits_inc'] });
    expect(run.exitCode).toBe(1);
    expect(run.results[0]!.message).toContain("merge matches on unique_key columns, and 'state || county' is an expression");
    expect(p.rows('visits_inc')).toEqual(before);
  });
});

describeEachEngine("merge and a key that repeats: dbt's MERGE (a key may repeat in the table; two new rows with a new key are both inserted)", (engine) => {
  const project = projectOn(engine);
  // dbt's first build is a plain create table as, whatever the key: the seed's two NY rows are kept.
  it("merge on unique_key 'state': the first build keeps both NY rows, and a later CT visit replaces the CT row", async () => {
    const p = project(", incremental_strategy='merge', unique_key='state'");
    await scenario(p, LATER_VISIT);
    expect(p.rows('visits_inc', 'state, county')).toEqual(p.rows('expected_overwrite', 'state, county'));
    expect(p.rows('visits_inc').filter((r) => r.state === 'NY')).toHaveLength(2);
  });
  // A warehouse MERGE inserts every new row that matches no target row, so two new rows with a key the table lacks are both inserted.
  it("merge on unique_key 'state': two new WA rows are both inserted", async () => {
    const p = project(", incremental_strategy='merge', unique_key='state'");
    await scenario(p, "insert into visits (state, county, city, last_visit_date) values ('WA', 'King', 'Seattle', '2022-02-01'), ('WA', 'Pierce', 'Tacoma', '2022-02-01')");
    expect(p.rows('visits_inc', 'city').filter((r) => r.state === 'WA').map((r) => r.city)).toEqual(['Seattle', 'Tacoma']);
  });
  // Two new rows matching one existing row: a warehouse's MERGE refuses it, and so does this (nothing is written).
  it("merge on unique_key 'state': two new CT rows for the one existing CT row are refused, the table unchanged", async () => {
    const p = project(", incremental_strategy='merge', unique_key='state'");
    succeeded(await p.build({ command: 'seed', fullRefresh: true }), ['expected_overwrite', 'visits']);
    succeeded(await p.build({ select: ['visits_inc'], fullRefresh: true }), ['visits_inc']);
    const before = p.rows('visits_inc');
    p.exec("insert into visits (state, county, city, last_visit_date) values ('CT', 'Hartford', 'Hartford', '2022-02-14'), ('CT', 'New Haven', 'New Haven', '2022-02-14')");
    const run = await p.build({ select: ['visits_inc'] });
    expect(run.exitCode).toBe(1);
    expect(run.results[0]!.message).toContain('more than one row for an existing unique_key (state)');
    expect(p.rows('visits_inc')).toEqual(before);
  });
});

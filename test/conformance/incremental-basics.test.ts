import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): the basic incremental model of
 * dbt-tests-adapter's basic/test_incremental.py (BaseIncremental). A source
 * whose identifier is a var points at one seed, then at a larger one; the
 * model selects the rows with an id above the table's largest, so after each
 * run it equals the seed the source points at.
 */

const BASE = `id,name,some_date
1,Easton,1981-05-20T06:46:51
2,Lillian,1978-09-03T18:10:33
3,Jeremiah,1982-03-11T03:59:51
4,Nolan,1976-05-06T20:21:35
`;
const ADDED = `${BASE}5,Hannah,1982-06-23T05:41:26
6,Eleanor,1991-08-10T23:12:21
7,Lily,1971-03-29T14:58:02
`;

const projectOn = (engine: EngineName) => function project(): MiniProject {
  return miniProject({
    'seeds/base.csv': BASE,
    'seeds/added.csv': ADDED,
    'models/sources.yml': `sources:\n  - name: raw\n    schema: "{{ target.schema }}"\n    tables:\n      - name: seed\n        identifier: "{{ var('seed_name', 'base') }}"\n`,
    'models/incremental.sql': `{{ config(materialized="incremental") }}
select * from {{ source('raw', 'seed') }}
{% if is_incremental() %}
where id > (select max(id) from {{ this }})
{% endif %}
`,
  }, undefined, { engine });
};

const results = (dir: string) => (JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as { results: { unique_id: string; status: string }[] }).results;

describeEachEngine('an incremental model follows its source as new rows arrive (test_incremental)', (engine) => {
  const project = projectOn(engine);
  it('through the CLI: seed loads 2 seeds; run with seed_name base equals base; run with seed_name added equals added', () => {
    const p = project();
    expect(runCli(['seed', '--project-dir', p.dir]).code).toBe(0);
    expect(p.rows('base')).toHaveLength(4);
    expect(p.rows('added')).toHaveLength(7);
    const first = runCli(['run', '--vars', 'seed_name: base', '--project-dir', p.dir]);
    expect(first.code, first.stderr + first.stdout).toBe(0);
    expect(results(p.dir).map((r) => r.status)).toEqual(['success']);
    expect(p.rows('incremental', 'id')).toEqual(p.rows('base', 'id'));
    const second = runCli(['run', '--vars', 'seed_name: added', '--project-dir', p.dir]);
    expect(second.code, second.stderr + second.stdout).toBe(0);
    expect(results(p.dir).map((r) => r.status)).toEqual(['success']);
    expect(p.rows('incremental', 'id')).toEqual(p.rows('added', 'id'));
  });

  it('the second run is incremental: it inserts only the three new rows and deletes none', async () => {
    const p = project();
    await p.buildOk({ command: 'seed' });
    const first = await p.buildOk({ vars: { seed_name: 'base' } });
    expect(first.results[0]!.plan!.mode).toBe('full');
    const second = await p.buildOk({ vars: { seed_name: 'added' } });
    expect(second.results[0]!.plan!.mode).toBe('incremental');
    expect(second.results[0]!.rowsInserted).toBe(3);
    expect(second.results[0]!.rowsDeleted).toBe(0);
    // a third run finds nothing new
    const third = await p.buildOk({ vars: { seed_name: 'added' } });
    expect(third.results[0]!.rowsInserted).toBe(0);
    expect(p.rows('incremental', 'id')).toEqual(p.rows('added', 'id'));
  });

  it('an existing view in its place is replaced by a full build (dbt: full_refresh_mode when existing_relation.is_view)', async () => {
    const p = project();
    await p.buildOk({ command: 'seed' });
    p.exec('create view incremental as select 0 as id');
    const run = await p.buildOk({ vars: { seed_name: 'added' } });
    expect(run.results[0]!.plan!.mode).toBe('full');
    expect(p.rows('incremental', 'id')).toEqual(p.rows('added', 'id'));
  });
});

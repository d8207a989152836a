import { expect, it } from 'vitest';
import { effectiveStrategy } from '../../../../src/config/model-config.js';
import { strategyNames } from '../../../../src/materialize/incremental/strategy-registry.js';
import { expectAtomicFailure, miniProject } from '../../../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../../../support/engine-under-test.js';

const MODEL = (config: string) => `{{ config(materialized='incremental'${config}) }}
select id, v from {{ source('raw', 'events') }}
{% if is_incremental() %}where id >= (select max(id) from {{ this }}){% endif %}
`;

const setupOn = (engine: EngineName) => function setup(config: string) {
  const p = miniProject({ 'models/m.sql': MODEL(config) }, undefined, { engine });
  p.exec(`create table events (id integer, v text); insert into events values (1, 'a'), (2, 'b');`);
  return p;
};

describeEachEngine('default strategy (no incremental_strategy, or default)', (engine) => {
  const setup = setupOn(engine);
  it('is delete+insert with a unique_key and append without, as in dbt-postgres', () => {
    expect(effectiveStrategy({ unique_key: 'id' })).toBe('delete+insert');
    expect(effectiveStrategy({ incremental_strategy: 'default', unique_key: ['a', 'b'] })).toBe('delete+insert');
    expect(effectiveStrategy({})).toBe('append');
    expect(effectiveStrategy({ incremental_strategy: 'default' })).toBe('append');
  });

  it('the registry is the one list of built-in strategy names', () => {
    expect(strategyNames()).toEqual(['append', 'delete+insert', 'merge', 'insert_overwrite', 'microbatch']);
  });

  it('an unknown strategy fails its model when it runs (as in dbt), with an error listing the valid ones', async () => {
    const p = setup(", incremental_strategy='upsert'");
    const r = await p.build();
    expect(r.exitCode).toBe(1);
    expect(r.results[0]!.status).toBe('error');
    expect(r.results[0]!.message).toMatch(/unknown incremental_strategy 'upsert'; valid: append, delete\+insert, merge, insert_overwrite, microbatch/);
    expect(p.rows('m')).toEqual([]);
  });

  it('with a unique_key: first build, then the last key is replaced, not duplicated; a rerun is idempotent', async () => {
    const p = setup(", unique_key='id'");
    await p.buildOk();
    p.exec(`update events set v = 'B' where id = 2; insert into events values (3, 'c')`);
    const r = await p.buildOk();
    expect(r.results[0]!.plan!.strategy).toBe('delete+insert');
    expect(p.rows('m')).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'B' }, { id: 3, v: 'c' }]);
    await p.buildOk();
    expect(p.rows('m')).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'B' }, { id: 3, v: 'c' }]);
  });

  it('without a key: the boundary row is appended again on every run (not idempotent)', async () => {
    const p = setup('');
    await p.buildOk();
    const r = await p.buildOk();
    expect(r.results[0]!.plan!.strategy).toBe('append');
    expect(p.rows('m')).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { id: 2, v: 'b' }]);
    await p.buildOk({ fullRefresh: true });
    expect(p.rows('m')).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }]);
  });

  it('a failure after the last statement of the publish leaves rows and schema unchanged and is in the ledger', async () => {
    const p = setup(", unique_key='id'");
    await p.buildOk();
    p.exec(`insert into events values (3, 'c')`);
    await expectAtomicFailure(p, 'm', 'commit');
    await expectAtomicFailure(p, 'm', 'commit', { fullRefresh: true });
  });
});

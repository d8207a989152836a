import { describe, expect, it } from 'vitest';
import { backfill } from '../../src/api/backfill.js';
import { compile } from '../../src/api/compile.js';
import { stale } from '../../src/api/stale.js';
import { miniProject } from '../support/strategy-project.js';

/**
 * A model (or data test) whose rendered SQL holds a second statement is
 * refused before anything of it runs, on every path that executes model
 * SQL: the second statement here would empty the raw table, which stays
 * intact.
 */
const EVIL = '; delete from events';
const RAW = `create table events (id integer, day text, amount real);
  insert into events values (1, '2024-01-01', 10), (2, '2024-01-02', 20), (3, '2024-01-02', 5);`;
const SELECT = "select id, day, amount from {{ source('raw', 'events') }}";

function setup(files: Record<string, string>) {
  const p = miniProject(files);
  p.exec(RAW);
  return p;
}

const refusal = (name: string) => `model '${name}' contains more than one SQL statement: a second one starts at 'delete from events'; a model is one select, and none of it was run`;

describe('model SQL is exactly one statement', () => {
  it.each([
    ['table', `{{ config(materialized='table') }}\n${SELECT}${EVIL}`],
    ['view', `{{ config(materialized='view') }}\n${SELECT}${EVIL}`],
    ['incremental (first build)', `{{ config(materialized='incremental', unique_key='id') }}\n${SELECT}${EVIL}`],
    ['microbatch', `{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='day', batch_size='day', begin='2024-01-01') }}\n${SELECT}${EVIL}`],
  ])('a %s model with a second statement fails as a model error, and the second statement never runs', async (_kind, sql) => {
    const p = setup({ 'models/m.sql': sql });
    const before = p.snapshot();
    const r = await p.build({ vars: { as_of: '2024-01-02' } });
    expect(r.results[0]!.status).toBe('error');
    expect(r.results[0]!.message).toContain(`models/m.sql:2: ${refusal('m')}`);
    expect(r.exitCode).toBe(1); // a node failure: exit 1, as in dbt
    expect(p.rows('events')).toHaveLength(3);
    expect(p.snapshot()).toEqual(before);
  });

  it('an incremental run whose is_incremental() branch adds a statement is refused; the table keeps its rows', async () => {
    const p = setup({ 'models/m.sql': `{{ config(materialized='incremental', unique_key='id') }}\n${SELECT}\n{% if is_incremental() %}${EVIL}{% endif %}` });
    await p.buildOk();
    const before = p.snapshot();
    const r = await p.build();
    expect(r.results[0]!.message).toContain(refusal('m'));
    expect(p.snapshot()).toEqual(before);
    expect(p.rows('m')).toHaveLength(3);
  });

  it('an ephemeral model is checked on its own, naming it (at its own file, as the ephemeral dbt would name); the model that refs it fails', async () => {
    const p = setup({
      'models/eph.sql': `{{ config(materialized='ephemeral') }}\n${SELECT}${EVIL}`,
      'models/m.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('eph') }}",
    });
    const r = await p.build();
    expect(r.results.find((x) => x.name === 'm')!.message).toContain(`models/eph.sql:2: compilation error in referenced ephemeral model model.shop.eph: ${refusal('eph')}`);
    expect(p.rows('events')).toHaveLength(3);
  });

  it('exact stale, the backfill preview and the backfill itself refuse it too, running none of it', async () => {
    const p = setup({
      'models/m.sql': `{{ config(materialized='incremental', unique_key='day', partition_by='day') }}
select day, sum(amount) as amount from {{ source('raw', 'events') }} group by day
{% if var('evil', false) %}${EVIL}{% endif %}`,
    });
    await p.buildOk();
    const before = p.snapshot();
    const vars = { evil: true };
    expect(() => stale({ projectDir: p.dir, model: 'm', vars })).toThrow(refusal('m'));
    const range = { projectDir: p.dir, model: 'm', start: '2024-01-01', end: '2024-01-02', reason: 'test', vars, writeArtifacts: false };
    await expect(backfill({ ...range, dryRun: true })).rejects.toThrow(refusal('m'));
    const done = await backfill({ ...range, onEvent: () => undefined });
    expect(done.exitCode).toBe(1); // the backfill's run failed a node: exit 1
    expect(done.runs[0]!.results[0]!.message).toContain(refusal('m'));
    expect(p.snapshot()).toEqual(before);
  });

  it('compile refuses it too', () => {
    const p = setup({ 'models/m.sql': `${SELECT}${EVIL}` });
    expect(() => compile({ projectDir: p.dir, writeArtifacts: false })).toThrow(refusal('m'));
  });

  it("a trailing ';' (whitespace and comments after it) is allowed, and ';' in strings, identifiers and comments is no statement end", async () => {
    const p = setup({
      'models/t.sql': `{{ config(materialized='table') }}\n${SELECT};\n  -- the end\n`,
      'models/v.sql': "select ';' as \"a;b\", 1 -- ; not a statement\n /* ; nor this */ as c;",
      'models/i.sql': `{{ config(materialized='incremental', unique_key='id') }}\n${SELECT} ;`,
    });
    await p.buildOk();
    await p.buildOk();
    expect(p.rows('t')).toHaveLength(3);
    expect(p.rows('i')).toHaveLength(3);
    expect(p.rows('v')).toEqual([{ 'a;b': ';', c: 1 }]);
  });

  it('hooks may hold several statements, as in dbt', async () => {
    const p = setup({
      'models/m.sql': `{{ config(materialized='table', post_hook="insert into events values (9, '2024-01-09', 1); insert into events values (10, '2024-01-10', 1)") }}\n${SELECT}`,
    });
    await p.buildOk();
    expect(p.rows('events')).toHaveLength(5);
  });

  it('a statement smuggled through incremental_predicates is refused: none of the delete runs', async () => {
    const p = setup({
      'models/m.sql': `{{ config(materialized='incremental', unique_key='id', incremental_predicates=["1 = 1); delete from events; select (1"]) }}\n${SELECT}`,
    });
    await p.buildOk();
    const before = p.snapshot();
    const r = await p.build();
    expect(r.results[0]!.message).toContain("the delete statement of model 'm' holds more than one SQL statement; only hooks and a project's strategy macro may, so none of it was run");
    expect(p.snapshot()).toEqual(before);
  });

  it('a data test is one statement: a singular test with a second statement runs none of it', async () => {
    const p = setup({
      'models/m.sql': `{{ config(materialized='table') }}\n${SELECT}`,
      'tests/no_big.sql': `select * from {{ ref('m') }} where amount > 100${EVIL}`,
    });
    const r = await p.build({ command: 'build' });
    const test = r.results.find((x) => x.resourceType === 'test')!;
    expect(test.status).toBe('error');
    expect(test.message).toContain("tests/no_big.sql:1: test 'no_big' contains more than one SQL statement: a second one starts at 'delete from events'; a data test is one select of its failing rows");
    expect(p.rows('events')).toHaveLength(3);
  });
});

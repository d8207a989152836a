import { expect, it } from 'vitest';
import { customMacroStrategy, strategyMacroName } from '../../../../src/materialize/incremental/custom-macro.js';
import { expectAtomicFailure, miniProject } from '../../../support/strategy-project.js';
import { parseModelSettings, type IncrementalModelSettings } from '../../../../src/config/model-settings.js';
import { describeEachEngine, type EngineName } from '../../../support/engine-under-test.js';

const INCREMENTAL = parseModelSettings({ materialized: 'incremental' }) as IncrementalModelSettings;

/** A project strategy: insert only the keys the target does not have yet (late versions are ignored). */
const MACRO = `{% macro get_incremental_insert_new_keys_sql(arg_dict) %}
  {%- set cols = get_quoted_csv(arg_dict.dest_columns | map(attribute='name')) -%}
  insert into {{ arg_dict.target_relation }} ({{ cols }})
  select {{ cols }} from {{ arg_dict.temp_relation }} as src
  where not exists (select 1 from {{ arg_dict.target_relation }} as t where t.{{ arg_dict.unique_key }} = src.{{ arg_dict.unique_key }})
  {%- for p in arg_dict.incremental_predicates or [] %} and {{ p }}{% endfor %}
{% endmacro %}
`;
const MODEL = `{{ config(materialized='incremental', incremental_strategy='insert_new_keys', unique_key='id', incremental_predicates=['src.v is not null']) }}
select id, v from {{ source('raw', 'events') }}
`;

const setupOn = (engine: EngineName) => function setup() {
  const p = miniProject({ 'macros/strategies.sql': MACRO, 'models/m.sql': MODEL }, undefined, { engine });
  p.exec(`create table events (id integer, v text); insert into events values (1, 'a'), (2, 'b');`);
  return p;
};

describeEachEngine('a project strategy (get_incremental_<name>_sql macro)', (engine) => {
  const setup = setupOn(engine);
  it('names the macro as dbt does and runs the SQL it returned as one step', () => {
    expect(strategyMacroName('delete+insert')).toBe('get_incremental_delete_insert_sql');
    const statements = customMacroStrategy('x').statements({
      model: 'm', target: '"m"', newRows: 't', uniqueKey: [], destColumns: [], predicates: [], settings: INCREMENTAL, customSql: '  insert into m select 1;  ',
    });
    expect(statements).toEqual([{ kind: 'exec', role: 'custom', sql: 'insert into m select 1' }]);
  });

  it('passes target_relation, temp_relation, unique_key, dest_columns and incremental_predicates to the macro', async () => {
    const p = setup();
    await p.buildOk();
    const script = await p.script('m');
    // The target in its schema, the new rows in the engine's temporary schema.
    const [schema, temp] = engine === 'postgres' ? ['public', 'pg_temp'] : ['main', 'temp'];
    expect(script).toContain(`-- custom\ninsert into "${schema}"."m" ("id", "v")\n  select "id", "v" from ${temp}."m__mini_dbt_new" as src\n  where not exists (select 1 from "${schema}"."m" as t where t.id = src.id) and src.v is not null;`);
  });

  it('first build, then the strategy decides: only new keys are inserted; a rerun is idempotent', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`update events set v = 'A' where id = 1; insert into events values (3, 'c'), (4, null)`);
    const r = await p.buildOk();
    expect(r.results[0]!.plan!.strategy).toBe('insert_new_keys');
    expect(p.rows('m')).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { id: 3, v: 'c' }]);
    await p.buildOk();
    expect(p.rows('m')).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { id: 3, v: 'c' }]);
    await p.buildOk({ fullRefresh: true });
    expect(p.rows('m')).toEqual([{ id: 1, v: 'A' }, { id: 2, v: 'b' }, { id: 3, v: 'c' }, { id: 4, v: null }]);
  });

  it('a failure after the last statement of the publish leaves rows and schema unchanged and is in the ledger', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (3, 'c')`);
    await expectAtomicFailure(p, 'm', 'custom');
    await expectAtomicFailure(p, 'm', 'commit');
  });
});

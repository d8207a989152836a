import { afterEach, describe, expect, it } from 'vitest';
import { runOperation } from '../../../src/api/run-operation.js';
import { writeProject } from '../../support/example-project.js';

/** log() as dbt levels it (info=True: info, else debug), and dbt_metadata_envs (dbt-core context_methods/test_builtin_functions.py). */
describe('log levels and dbt_metadata_envs', () => {
  afterEach(() => {
    delete process.env.DBT_ENV_CUSTOM_ENV_RUN_ID;
    delete process.env.DBT_ENV_CUSTOM_ENV_JOB_ID;
  });

  it('log(msg) goes to the debug stream, log(msg, info=True) to the info one', () => {
    const dir = writeProject({
      'project.yml': 'name: shop\n',
      'macros/m.sql': '{% macro both() %}{{ log("quiet one") }}{{ log("loud one", info=True) }}{{ log("loud too", {"info": true}) }}{% endmacro %}\n',
    });
    const info: string[] = [];
    const debug: string[] = [];
    runOperation({ projectDir: dir, macro: 'both', log: (m) => info.push(m), debug: (m) => debug.push(m) });
    expect(info).toEqual(['loud one', 'loud too']);
    expect(debug).toEqual(['quiet one']);
  });

  it('dbt_metadata_envs holds each DBT_ENV_CUSTOM_ENV_ variable without its prefix, and nothing else', () => {
    process.env.DBT_ENV_CUSTOM_ENV_RUN_ID = '1234';
    process.env.DBT_ENV_CUSTOM_ENV_JOB_ID = '5678';
    const dir = writeProject({ 'project.yml': 'name: shop\n', 'macros/m.sql': '{% macro envs() %}{{ log(dbt_metadata_envs, info=True) }}{% endmacro %}\n' });
    const info: string[] = [];
    runOperation({ projectDir: dir, macro: 'envs', log: (m) => info.push(m) });
    expect(info).toEqual(["{'RUN_ID': '1234', 'JOB_ID': '5678'}"]);
  });
});

describe('flags.WHICH and invocation_args_dict', () => {
  it('name the command being run, as dbt does (not always run)', async () => {
    const { run } = await import('../../../src/api/run.js');
    const dir = writeProject({
      'project.yml': 'name: shop\ndatabase: warehouse.db\n',
      'models/m.sql': "{{ log('which=' ~ flags.WHICH ~ '/' ~ invocation_args_dict.which ~ '/' ~ invocation_args_dict.full_refresh, info=True) }}select 1 as a\n",
      'macros/w.sql': "{% macro w() %}{{ log(flags.WHICH ~ '/' ~ invocation_args_dict.which, info=True) }}{% endmacro %}\n",
    });
    const seen = async (command: 'run' | 'build', fullRefresh = false) => {
      const logs: string[] = [];
      await run({ projectDir: dir, command, fullRefresh, writeArtifacts: false, onEvent: (e) => { if (e.type === 'log') logs.push(e.message); } });
      return logs.filter((l) => l.startsWith('which='));
    };
    expect(await seen('run')).toEqual(['which=run/run/False']);
    expect(await seen('build', true)).toEqual(['which=build/build/True']);
    const ops: string[] = [];
    runOperation({ projectDir: dir, macro: 'w', log: (m) => ops.push(m) });
    expect(ops).toEqual(['run-operation/run-operation']);
  });
});

describe('project_name, selected_resources and diff_of_two_dicts', () => {
  it('name the root project and the nodes the invocation selected; diff_of_two_dicts keeps what the first dict has that the second has not, ignoring case', async () => {
    const { run } = await import('../../../src/api/run.js');
    const dir = writeProject({
      'project.yml': 'name: shop\ndatabase: warehouse.db\n',
      'models/a.sql': 'select 1 as a\n',
      'models/b.sql': "{{ log('ctx ' ~ project_name ~ ' ' ~ selected_resources, info=True) }}select 1 as b\n",
      'macros/d.sql': "{% macro d() %}{{ log(diff_of_two_dicts({'Main': ['t1', 'T2', 't3'], 'other': ['x']}, {'main': ['t2'], 'third': ['y']}), info=True) }}{{ log(selected_resources, info=True) }}{% endmacro %}\n",
    });
    const logs: string[] = [];
    await run({ projectDir: dir, select: ['a', 'b'], writeArtifacts: false, onEvent: (e) => { if (e.type === 'log') logs.push(e.message); } });
    expect(logs).toContain("ctx shop ['model.shop.a', 'model.shop.b']");
    const ops: string[] = [];
    runOperation({ projectDir: dir, macro: 'd', log: (m) => ops.push(m) });
    expect(ops).toEqual(["{'Main': ['t1', 't3'], 'other': ['x']}", '[]']);
  });
});

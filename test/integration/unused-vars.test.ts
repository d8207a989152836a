import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleProject, writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

const ASOF = "Warning: var 'asof' is not used by any selected model; did you mean 'as_of'?";

describe('a --vars key that nothing selected reads is warned about (never an error: dbt ignores it)', () => {
  it('a misspelled as_of: one warning line, the run still succeeds; the same when the load is served by the parse cache', () => {
    const dir = exampleProject();
    const first = runCli(['build', '--vars', '{asof: 2026-10-01}', '--project-dir', dir]);
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n').filter((l) => l.startsWith('Warning: var '))).toEqual([ASOF]);
    expect(existsSync(join(dir, 'target/partial_parse.json'))).toBe(true);
    const cached = runCli(['run', '--vars', '{asof: 2026-10-01}', '--project-dir', dir]);
    expect(cached.code).toBe(0);
    expect(cached.stderr).toContain(ASOF);
    const compiled = runCli(['compile', '-s', 'daily_revenue', '--vars', '{asof: 2026-10-01}', '--project-dir', dir]);
    expect(compiled.stderr).toContain(ASOF);
  });

  it('vars read only inside is_incremental() or by mini-dbt itself are used; a var read only by an unselected model is not', () => {
    const dir = writeProject({
      'project.yml': 'name: p\n',
      'models/a.sql': "{{ config(materialized='incremental') }}\nselect 1 as x {% if is_incremental() %} where {{ var('only_incremental', 1) }} = 1 {% endif %}",
      'models/b.sql': "select '{{ var('region', 'eu') }}' as region",
    });
    const vars = ['--vars', '{only_incremental: 1, as_of: 2026-10-01, lookback_days: 3, regon: x}'];
    const all = runCli(['run', ...vars, '--project-dir', dir]);
    expect(all.code).toBe(0);
    expect(all.stderr.trim().split('\n')).toEqual(["Warning: var 'regon' is not used by any selected model; did you mean 'region'?"]);
    const onlyA = runCli(['run', '-s', 'a', '--vars', '{region: us}', '--project-dir', dir]);
    expect(onlyA.code).toBe(0);
    expect(onlyA.stderr.trim()).toBe("Warning: var 'region' is not used by any selected model");
  });

  it('a var name computed in a template: which vars are read cannot be known, so nothing is warned', () => {
    const dir = writeProject({
      'project.yml': 'name: p\n',
      'models/a.sql': "{% set name = 'reg' ~ 'ion' %}select '{{ var(name, 'eu') }}' as region",
    });
    const result = runCli(['run', '--vars', '{region: us, anything: 1}', '--project-dir', dir]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

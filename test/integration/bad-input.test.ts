import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/** A built example warehouse; every bad input below must leave it exactly as it was. */
let base: string;
beforeAll(() => {
  base = exampleProject();
  expect(runCli(['build', '--project-dir', base]).code).toBe(0);
});

function copyOfBase(): string {
  const dir = exampleProject();
  writeFileSync(join(dir, 'warehouse.db'), readFileSync(join(base, 'warehouse.db')));
  return dir;
}

interface Case {
  readonly name: string;
  readonly edit?: (dir: string) => void;
  readonly args: readonly string[];
  readonly code: number;
  readonly message: RegExp;
}

const write = (path: string, text: string) => (dir: string) => writeFileSync(join(dir, path), text);

const CASES: Case[] = [
  { name: 'missing project.yml', edit: (d) => rmSync(join(d, 'project.yml')), args: ['run'], code: 2, message: /no project\.yml \(or dbt_project\.yml\) found/ },
  { name: 'YAML syntax error in project.yml', edit: write('project.yml', 'name: brightcart\nvars: [\n'), args: ['run'], code: 2, message: /project\.yml:3:\d+: YAML syntax error/ },
  { name: 'unknown key in project.yml', edit: write('project.yml', 'name: brightcart\nmodelz: {}\n'), args: ['run'], code: 2, message: /project\.yml:2: unknown key 'modelz'.*Did you mean 'models'/ },
  { name: 'wrong type in project.yml', edit: write('project.yml', 'name: brightcart\nmodel-paths: 3\n'), args: ['run'], code: 2, message: /project\.yml:2: invalid value for 'model-paths'/ },
  { name: 'YAML error in a properties file', edit: write('models/schema.yml', 'models:\n  - name: x\n   bad: [\n'), args: ['run'], code: 2, message: /models\/schema\.yml:\d+:\d+: YAML syntax error/ },
  { name: 'template syntax error', edit: write('models/marts/monthly_revenue.sql', 'select 1\n{{ foo( }}\n'), args: ['run'], code: 2, message: /models\/marts\/monthly_revenue\.sql:2:\d+: template syntax error/ },
  { name: 'ref to a missing model', edit: write('models/marts/monthly_revenue.sql', "select *\nfrom {{ ref('daily_revenu') }}\n"), args: ['run'], code: 2, message: /monthly_revenue\.sql:2: model 'monthly_revenue' depends on a node named 'daily_revenu' which was not found\. Did you mean 'daily_revenue'\?/ },
  { name: 'ref to itself', edit: write('models/marts/monthly_revenue.sql', "select * from {{ ref('monthly_revenue') }}\n"), args: ['run'], code: 2, message: /refers to itself/ },
  { name: 'unknown source', edit: write('models/marts/monthly_revenue.sql', "select * from {{ source('shop', 'orders') }}\n"), args: ['run'], code: 2, message: /source named 'shop\.orders' which was not found/ },
  { name: 'var missing without default', edit: write('models/marts/monthly_revenue.sql', "select {{ var('currency') }} as c\n"), args: ['run', '-s', 'monthly_revenue'], code: 2, message: /Required var 'currency' not found for model 'monthly_revenue' \(models\/marts\/monthly_revenue\.sql\)/ },
  { name: 'cycle', edit: (d) => { write('models/marts/monthly_revenue.sql', "select * from {{ ref('cyc') }}")(d); write('models/marts/cyc.sql', "select * from {{ ref('monthly_revenue') }}")(d); }, args: ['run'], code: 2, message: /Found a cycle: .*cyc -> .*monthly_revenue -> .*cyc/ },
  { name: 'unknown model in --select', args: ['run', '--select', 'daly_revenue'], code: 2, message: /'daly_revenue' does not match any node[\s\S]*did you mean 'daily_revenue'/ },
  { name: 'malformed --vars', args: ['run', '--vars', '{as_of: [1'], code: 2, message: /--vars argument is not valid/ },
  { name: '--vars that is not a mapping', args: ['run', '--vars', '[1, 2]'], code: 2, message: /must be a YAML dictionary, but was of type 'list'/ },
  { name: 'unique_key naming a missing column', edit: (d) => { const p = join(d, 'models/marts/daily_revenue.sql'); writeFileSync(p, readFileSync(p, 'utf8').replace("unique_key='order_date'", "unique_key='order_day'")); }, args: ['run', '-s', 'daily_revenue'], code: 2, message: /unique_key column 'order_day' of model 'daily_revenue' not in its output/ },
  { name: 'unknown materialization', edit: write('models/marts/monthly_revenue.sql', "{{ config(materialized='tabel') }}select 1 as a"), args: ['run'], code: 2, message: /unknown materialization 'tabel'.*Did you mean 'table'/ },
  { name: 'unknown incremental strategy', edit: write('models/marts/monthly_revenue.sql', "{{ config(materialized='incremental', incremental_strategy='upsert') }}select 1 as a"), args: ['run'], code: 2, message: /incremental_strategy 'upsert'; valid: / },
  { name: 'a backfill start that is not a date', args: ['run', '-s', 'daily_revenue', '--vars', `{start: "2026-09-01'; DROP TABLE raw_orders; --", end: "2026-09-02"}`], code: 2, message: /var 'start' must be a date like 2026-09-01/ },
  { name: 'start after end', args: ['run', '-s', 'daily_revenue', '--vars', '{start: "2026-09-10", end: "2026-09-01"}'], code: 2, message: /start \(2026-09-10\) is after end \(2026-09-01\)/ },
  { name: 'unknown command flag', args: ['run', '--selct', 'x'], code: 2, message: /unknown option '--selct'/ },
];

describe('bad input: one clear message, the right exit code, nothing changed', () => {
  it.each(CASES)('$name', ({ edit, args, code, message }) => {
    const dir = copyOfBase();
    edit?.(dir);
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    const result = runCli([...args, '--project-dir', dir]);
    expect(result.stderr + result.stdout).toMatch(message);
    expect(result.code).toBe(code);
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/); // no stack trace
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
  });

  it('a SQL error in one model fails it (exit 1), skips its descendants and still runs the others', () => {
    const dir = copyOfBase();
    writeFileSync(join(dir, 'models/marts/daily_revenue.sql'), 'select order_date, no_such_column from {{ ref(\'raw_orders\') }}');
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    const result = runCli(['run', '--project-dir', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ERROR creating sql \w+ model main\.daily_revenue/);
    expect(result.stdout).toMatch(/Database Error in model daily_revenue \(models\/marts\/daily_revenue\.sql\)\n.*no such column: no_such_column/);
    expect(result.stdout).toMatch(/SKIP relation main\.monthly_revenue/);
    expect(result.stdout).toMatch(/OK created sql view model main\.stg_orders/);
    expect(result.stdout).toMatch(/Done\. PASS=1 WARN=0 ERROR=1 SKIP=1 TOTAL=3/);
    const after = warehouseSnapshot(join(dir, 'warehouse.db'));
    expect(after.daily_revenue).toEqual(before.daily_revenue);
    expect(after.monthly_revenue).toEqual(before.monthly_revenue);
  });

  it('a failing publish leaves no staging table behind', () => {
    const dir = copyOfBase();
    const result = runCli(['run', '--project-dir', dir, '-s', 'monthly_revenue'], { env: { MINI_DBT_INJECT_FAILURE: 'monthly_revenue:swap' } });
    expect(result.code).toBe(1);
    expect(existsSync(join(dir, 'warehouse.db'))).toBe(true);
    const after = warehouseSnapshot(join(dir, 'warehouse.db')) as { schema: { name: string }[] };
    expect(after.schema.map((o) => o.name)).not.toContain('monthly_revenue__mini_dbt_tmp');
  });
});

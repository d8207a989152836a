import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/** A built example warehouse; every case below runs on a copy and must leave it exactly as it was. */
let base: string;
beforeAll(() => {
  base = exampleProject();
  expect(runCli(['build', '--project-dir', base]).code).toBe(0);
});

const DAILY = 'models/marts/daily_revenue.sql';
const MONTHLY = 'models/marts/monthly_revenue.sql';

/** Run the CLI on a copy of the built example with `files` written over it; the warehouse must not change. */
function runEdited(files: Readonly<Record<string, string | ((text: string) => string)>>, args: readonly string[]): CliResult & { seen: string } {
  const dir = exampleProject();
  writeFileSync(join(dir, 'warehouse.db'), readFileSync(join(base, 'warehouse.db')));
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof text === 'string' ? text : text(readFileSync(file, 'utf8')));
  }
  const before = warehouseSnapshot(join(dir, 'warehouse.db'));
  const result = runCli([...args, '--project-dir', dir]);
  expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
  const seen = `${result.stderr}\n${result.stdout}`.replaceAll(dir, '<project>');
  expect(seen).not.toMatch(/\n\s+at .*\.js:\d+/);
  expect(seen).not.toMatch(/\[object Object\]|Internal error/);
  return { ...result, seen };
}

describe('one error, not a cascade', () => {
  it('a model that fails to render is the one error; its dependents are skipped because of it', () => {
    const r = runEdited({ [DAILY]: (t) => t.replace('where load_date <= {{ as_of() }}', 'where load_date <= {{ as_off() }}') }, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Error: models/marts/daily_revenue.sql:17: 'as_off' is not a macro or function. Did you mean 'as_of'?");
    expect(r.stderr).toContain('SKIP relation main.monthly_revenue: skipped because model.brightcart.daily_revenue failed to render');
    expect(r.seen).not.toMatch(/not found/);
    expect(r.seen.match(/is not a macro or function/g)).toHaveLength(1);
  });

  it('a model two steps downstream names the model that failed, not the one in between', () => {
    const r = runEdited({
      [DAILY]: (t) => t.replace('where load_date <= {{ as_of() }}', 'where load_date <= {{ as_off() }}'),
      'models/marts/yearly_revenue.sql': "select substr(month, 1, 4) as year, sum(revenue) as revenue from {{ ref('monthly_revenue') }} group by 1",
    }, ['build']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SKIP relation main.yearly_revenue: skipped because model.brightcart.daily_revenue failed to render');
    expect(r.seen).not.toMatch(/not found/);
  });
});

describe('Jinja misuse reads like Jinja: one message with file:line, exit 2, never JavaScript', () => {
  it.each([
    ['return() outside a macro', 'select 1 as a,\n  {{ return(1) }} as b\n', "Error: models/marts/monthly_revenue.sql:2:12: 'return' outside macro"],
    ['{% do return() %} outside a macro', 'select 1 as a\n{% do return(1) %}\n', "Error: models/marts/monthly_revenue.sql:2:13: 'return' outside macro"],
    ['raise_compiler_error() without a message', 'select 1 as a\n{{ exceptions.raise_compiler_error() }}\n', "Error: models/marts/monthly_revenue.sql:2:14: raise_compiler_error() missing 1 required positional argument: 'msg'"],
    ['ref() without arguments', 'select *\nfrom {{ ref() }}\n', 'Error: models/marts/monthly_revenue.sql:2:12: ref() takes at least one argument (0 given)'],
    ['ref() with four arguments', 'select *\nfrom {{ ref(1, 2, 3, 4) }}\n', 'Error: models/marts/monthly_revenue.sql:2:12: ref() takes at most two arguments (4 given)'],
    ['ref() of a number', 'select *\nfrom {{ ref(1) }}\n', 'Error: models/marts/monthly_revenue.sql:2:12: The name argument to ref() must be a string, got int'],
    ['source() with one argument', "select *\nfrom {{ source('only_one') }}\n", 'Error: models/marts/monthly_revenue.sql:2:15: source() takes exactly two arguments (1 given)'],
    ['var() without a name', 'select\n  {{ var() }} as a\n', "Error: models/marts/monthly_revenue.sql:2:9: var() missing 1 required positional argument: 'var_name'"],
    ['config() with a number', "select 1 as a\n{{ config(1) }}\n", 'Error: models/marts/monthly_revenue.sql:2:10: Invalid inline model config: config() takes keyword arguments or one dict, got int 1'],
    ['calling this', 'select 1 as a,\n  {{ this() }} as b\n', "Error: models/marts/monthly_revenue.sql:2:10: 'this' is not callable"],
    ['calling a string', "select 1 as a,\n  {{ 'x'() }} as b\n", "Error: models/marts/monthly_revenue.sql:2:9: 'x' is not callable"],
    ['a filter given None', "select 1 as a,\n  {{ none | first }} as b\n", "'NoneType' object is not subscriptable"],
  ])('%s', (_what, model, message) => {
    const r = runEdited({ [MONTHLY]: model }, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.seen).not.toMatch(/undefined|TypeError|RangeError|ReferenceError/);
  });
});

describe('an adapter method that does not exist', () => {
  it("passes the parse, as dbt's does, and fails its model when it runs: file:line, exit 1, the rest skipped or built", () => {
    const r = runEdited({ [MONTHLY]: 'select 1 as a,\n  {{ adapter.nope() }} as b\n' }, ['run']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("models/marts/monthly_revenue.sql:2:13: 'adapter' has no attribute 'nope'");
    expect(r.seen).not.toMatch(/undefined|TypeError|RangeError|ReferenceError/);
  });
});

describe('a macro named like a builtin', () => {
  it.each(['var', 'this', 'return', 'env_var', 'exceptions', 'builtins'])('%s: refused at load, naming the macro file and line', (name) => {
    const r = runEdited({ 'macros/mine.sql': `{# mine #}\n{% macro ${name}(x) %}'{{ x }}'{% endmacro %}\n` }, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: macros/mine.sql:2: macro '${name}' has the name of a builtin of the template context, which a macro cannot replace`);
    expect(r.stderr).toContain('only ref, source, config, is_incremental can be replaced');
  });

  it("ref: the project's macro replaces ref everywhere and reaches dbt's with builtins.ref (dbt's override)", () => {
    const r = runEdited({
      'macros/ref.sql': "{% macro ref(name) -%}\n  {%- if name == 'revenue_by_day' %}{{ return(builtins.ref('daily_revenue')) }}{% endif -%}\n  {{ return(builtins.ref(name)) }}\n{%- endmacro %}\n",
      [MONTHLY]: (t) => t.replace("ref('daily_revenue')", "ref('revenue_by_day')"),
    }, ['compile', '-s', 'monthly_revenue']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('from "main"."daily_revenue"');
    const ls = runEdited({
      'macros/ref.sql': "{% macro ref(name) -%}\n  {%- if name == 'revenue_by_day' %}{{ return(builtins.ref('daily_revenue')) }}{% endif -%}\n  {{ return(builtins.ref(name)) }}\n{%- endmacro %}\n",
      [MONTHLY]: (t) => t.replace("ref('daily_revenue')", "ref('revenue_by_day')"),
    }, ['ls', '-s', '+monthly_revenue', '--resource-type', 'model']);
    expect(ls.stdout).toContain('brightcart.marts.daily_revenue');
  });

  it("is_incremental: the project's macro decides what the template sees (a macro of dbt's global project)", () => {
    const r = runEdited({ 'macros/inc.sql': '{% macro is_incremental() %}{{ return(false) }}{% endmacro %}\n' }, ['compile', '-s', 'daily_revenue']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('order_date between');
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../../../src/api/session.js';
import { renderModel } from '../../../../src/compile/render-model.js';
import { openWarehouse } from '../../../../src/engine/open-warehouse.js';
import { PARSE_CONTEXT } from '../../../../src/invocation/run-context.js';
import { writeProject } from '../../../support/example-project.js';
import { AdapterColumn, columnFromDescription, sqliteColumn } from '../../../../src/compile/jinja/adapter-column.js';
import { JinjaEnvironment } from '../../../../src/compile/jinja-environment.js';
import { behaviorFlags } from '../../../../src/compile/jinja/adapter-behavior.js';
import { AgateTable } from '../../../../src/compile/jinja/agate-table.js';

describe("dbt's Column, as dbt-adapters' base/column.py defines it", () => {
  it('types: string, integer, float, numeric, and what data_type renders', () => {
    const text = sqliteColumn('t', 'TEXT');
    expect([text.is_string(), text.string_size(), text.data_type]).toEqual([true, 256, 'character varying(256)']);
    expect(sqliteColumn('blank', '').dtype).toBe('TEXT'); // dbt-sqlite: a column without a declared type is TEXT
    expect(new AdapterColumn('i', 'bigint').is_integer()).toBe(true);
    expect(new AdapterColumn('i', 'INT').is_integer()).toBe(false); // not in dbt's list
    expect(new AdapterColumn('f', 'float8').is_float()).toBe(true);
    expect(new AdapterColumn('n', 'numeric', null, 10, 2).data_type).toBe('numeric(10,2)');
    expect(new AdapterColumn('n', 'numeric').is_number()).toBe(true);
    expect(() => new AdapterColumn('i', 'integer').string_size()).toThrow('Called string_size() on non-string field!');
    expect(String(new AdapterColumn('a', 'integer'))).toBe('<Column a (integer)>');
    expect(new AdapterColumn('a', 'varchar', 3).literal("'x'")).toBe("'x'::character varying(3)");
  });

  it('from_description reads sizes, and refuses sizes that are not integers', () => {
    expect(columnFromDescription('v', 'varchar(20)').char_size).toBe(20);
    const n = columnFromDescription('n', 'numeric(12,3)');
    expect([n.numeric_precision, n.numeric_scale]).toEqual([12, 3]);
    expect(() => columnFromDescription('v', 'varchar(x)')).toThrow('could not convert "x" to an integer');
  });

  it('can_expand_to compares string sizes only', () => {
    expect(new AdapterColumn('a', 'varchar', 10).can_expand_to(new AdapterColumn('b', 'varchar', 20))).toBe(true);
    expect(new AdapterColumn('a', 'varchar', 10).can_expand_to(new AdapterColumn('b', 'integer'))).toBe(false);
  });
});

describe('adapter.behavior', () => {
  it('flags take the project value, else the default; an unregistered flag fails only when running', () => {
    const flags = behaviorFlags({ enable_truthy_nulls_equals_macro: true }, true);
    expect(flags.enable_truthy_nulls_equals_macro!.no_warn).toBe(true);
    expect(flags.require_batched_execution_for_custom_microbatch_strategy!.setting).toBe(false);
    expect(() => flags.nope).toThrow('The flag nope has not be registered.');
    expect(behaviorFlags(undefined, false).nope!.no_warn).toBe(false);
  });

  it("a flag's Python truth is its setting: {% if adapter.behavior.flag %} (as dbt's __bool__)", () => {
    const env = new JinjaEnvironment([]);
    const on = behaviorFlags({ enable_truthy_nulls_equals_macro: true }, true);
    const off = behaviorFlags({}, true);
    const template = "{% if f %}on{% else %}off{% endif %} {{ 'yes' if f else 'no' }} {{ not f }}";
    expect(env.env.renderString(template, { f: on.enable_truthy_nulls_equals_macro })).toBe('on yes False');
    expect(env.env.renderString(template, { f: off.enable_truthy_nulls_equals_macro })).toBe('off no True');
  });
});

describe('agate-like tables', () => {
  it('columns and rows are mapped sequences; print_table writes the grid agate prints', () => {
    const printed: string[] = [];
    const table = new AgateTable(['k', 'n'], [['a', 1], ['bb', 1000.5], ['c', null]], (t) => printed.push(t));
    const columns = table.columns as unknown as { keys(): string[]; items(): unknown[][]; get(k: string): unknown };
    expect(columns.keys()).toEqual(['k', 'n']);
    expect(columns.items().map((p) => p[0])).toEqual(['k', 'n']);
    expect(columns.get('missing')).toBeNull();
    const row = table.rows[1] as unknown as { get(k: string): unknown; values(): unknown[] };
    expect([row.get('n'), row.values()]).toEqual([1000.5, ['bb', 1000.5]]);
    table.print_table(2);
    expect(printed[0]).toBe(['| k   |       n |', '| --- | ------- |', '| a   |       1 |', '| bb  | 1,000.5 |', '| ... |     ... |'].join('\n'));
  });
});

describe('the sandbox holds for the new API objects', () => {
  const render = (sql: string): string => {
    const dir = writeProject({ 'project.yml': 'name: p\n', 'models/m.sql': sql });
    const session = loadSession({ projectDir: dir });
    const db = openWarehouse(join(dir, 'warehouse.db'));
    try {
      return renderModel(session.manifest, session.manifest.models.get('m')!, { db, incremental: false, run: PARSE_CONTEXT }).sql;
    } finally {
      db.close();
    }
  };
  it.each([
    "{{ api.Column.constructor }}",
    "{{ api.Column.create.call }}",
    "{{ api.Column('a', 'text').constructor }}",
    "{{ adapter.behavior.constructor }}",
    "{{ adapter.behavior.enable_truthy_nulls_equals_macro.__proto__ }}",
    "{{ run_query('select 1 as a').columns.keys.constructor }}",
    "{{ run_query('select 1 as a').rows[0].get.apply }}",
  ])('%s is refused', (sql) => {
    expect(() => render(sql)).toThrow(/is not allowed in templates/);
  });
});

import { openWarehouse, type Warehouse } from '../../../../src/engine/open-warehouse.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../../../src/api/session.js';
import { PARSE_CONTEXT } from '../../../../src/invocation/run-context.js';
import { renderModel } from '../../../../src/compile/render-model.js';
import { writeProject } from '../../../support/example-project.js';

/** Render `sql` as model `m` of a one-model project (with `macros`), optionally against a warehouse. */
function render(sql: string, options: { macros?: string; warehouse?: (db: Warehouse) => void } = {}): string {
  const dir = writeProject({ 'project.yml': 'name: p\n', 'models/m.sql': sql, ...(options.macros ? { 'macros/m.sql': options.macros } : {}) });
  const session = loadSession({ projectDir: dir });
  const db = openWarehouse(join(dir, 'warehouse.db'));
  try {
    options.warehouse?.(db);
    return renderModel(session.manifest, session.manifest.models.get('m')!, { db, incremental: false, run: { ...PARSE_CONTEXT, startedAt: new Date('2026-09-02T03:04:05.678Z') } }).sql;
  } finally {
    db.close();
  }
}

describe('Jinja features nunjucks lacks', () => {
  it('{% do %}, break and continue', () => {
    const sql = "{% set l = [] %}{% for i in range(10) %}{% if i == 1 %}{% continue %}{% endif %}{% if i == 4 %}{% break %}{% endif %}{% do l.append(i) %}{% endfor %}{{ l | join(',') }}";
    expect(render(sql)).toBe('0,2,3');
  });

  it('{% set a, b = ... %} unpacks as in Jinja (nunjucks would set both to the whole value)', () => {
    const macros = "{% macro bounds() %}{{ return(['2026-09-01', '2026-09-30']) }}{% endmacro %}";
    expect(render("{% set a, b = [1, 2] %}{{ a }}-{{ b }}")).toBe('1-2');
    expect(render("{% set lo, hi = bounds() %}between '{{ lo }}' and '{{ hi }}'", { macros })).toBe("between '2026-09-01' and '2026-09-30'");
    expect(render("{% set x, y = 'ab' %}{{ y }}{{ x }}|{% set k1, k2 = {'p': 1, 'q': 2} %}{{ k1 }}{{ k2 }}")).toBe('ba|pq');
    expect(render("{% for pair in [[1, 2], [3, 4]] %}{% set l, r = pair %}{{ r }}{{ l }}{% endfor %}")).toBe('2143');
    expect(render("select 1\n  {%- set a, b = [1, 2] -%}\n  , {{ b }}")).toBe('select 1, 2');
    expect(render("{% set one = [1, 2] %}{{ one | length }}")).toBe('2');
    const formatted = (() => {
      try {
        render("select 1\n{% set a, b, c = [1, 2] %}{{ a }}");
        return '';
      } catch (err) {
        return (err as { format(): string }).format();
      }
    })();
    expect(formatted).toMatch(/^models\/m\.sql:2:\d+: not enough values to unpack \(expected 3, got 2\)/);
    expect(() => render("{% set a, b = [1, 2, 3] %}{{ a }}")).toThrow(/too many values to unpack \(expected 2\)/);
  });

  it("the 'in' test: x is in seq, x is not in seq (strings, comments and raw blocks untouched)", () => {
    expect(render("{% if 'a' is in ['a', 'b'] %}yes{% endif %}|{{ 'c' is not in ['a'] }}|{{ 3 is in [1, 2] }}")).toBe('yes|True|False');
    expect(render("{{ 'this is in a string' }}|{# x is in y #}|{% raw %}{{ a is in b }}{% endraw %}")).toBe('this is in a string||{{ a is in b }}');
    // Lines are kept: an error after a rewritten test is reported on its own line.
    let location: unknown;
    try {
      render("select 1\n{{ 'a' is in ['a'] }}\n{{ missing() }}");
    } catch (err) {
      location = (err as { location: unknown }).location;
    }
    expect(location).toMatchObject({ file: 'models/m.sql', line: 3 });
  });

  it('namespace() with {% set ns.x = ... %}', () => {
    const sql = "{% set ns = namespace(total=0, seen='') %}{% for i in [1, 2, 3] %}{%- set ns.total = ns.total + i -%}{% set ns.seen = ns.seen ~ 'x%}' %}{% endfor %}{{ ns.total }} {{ ns.seen }}";
    expect(render(sql)).toBe('6 x%}x%}x%}');
  });

  it('return() gives the caller a real value, and stops the macro', () => {
    const macros = "{% macro cols(prefix='c', n=2) %}{% set out = [] %}{% for i in range(n) %}{% do out.append(prefix ~ i) %}{% endfor %}{{ return(out) }}never printed{% endmacro %}"
      + "{% macro pick(flag) %}{% if flag %}{{ return('yes') }}{% endif %}{% set late = 'set' %}{{ return(late) }}{% endmacro %}";
    expect(render("{% set c = cols(n=3, prefix='x') %}{{ c | length }} {{ c | join('|') }} {{ pick(true) }} {{ pick(false) }} {{ pick(true) }}", { macros })).toBe('3 x0|x1|x2 yes set yes');
  });

  it('filters: tojson, map, unique, min, max, format, items, selectattr with a test, rejectattr, count, as_*', () => {
    const sql = [
      "{% set rows = [{'m': 'card', 'n': 3}, {'m': 'Cash', 'n': 1}, {'m': 'card', 'n': 2}] %}",
      "{{ rows | map(attribute='m') | unique | join(',') }}",
      "{{ rows | map(attribute='n') | max }} {{ rows | map(attribute='n') | min }}",
      "{{ rows | selectattr('m', 'equalto', 'card') | map(attribute='n') | join('+') }}",
      "{{ rows | rejectattr('n', '>', 1) | map(attribute='m') | first }}",
      "{{ rows | count }} {{ {'b': 1, 'a': [1, 2]} | tojson }}",
      "{{ '%s-%05.1f' | format('x', 3.14159) }}",
      "{% for k, v in {'a': 1, 'b': 2} | items %}{{ k }}={{ v }},{% endfor %}",
      "{{ 'true' | as_bool is true }} {{ '12' | as_number + 1 }} {{ none | as_text }}|",
      "{{ ['a', 'B'] | map('upper') | join }}",
    ].join(' ');
    expect(render(sql)).toBe('card,Cash 3 1 3+2 Cash 3 {"a": [1, 2], "b": 1} x-003.1 a=1,b=2, True 13 | AB');
  });

  it("Python operators: '%s' % x, list + list, string * n, True/False/None, Python modulo", () => {
    expect(render("{{ 'id_%s' % 7 }} {{ '%s.%s' % ('a', 'b') }} {{ ([1] + [2, 3]) | length }} {{ '-' * 3 }} {{ -1 % 3 }} {{ True and not False }} {{ None is none }}"))
      .toBe('id_7 a.b 3 --- 2 True True');
    expect(render("{{ '2026-09-01'[0:4] }} {{ '2026-09-01'[5:7] ~ '/' ~ 'abc'[::-1] }} {{ [1, 2, 3][1:] | join(',') }}")).toBe('2026 09/cba 2,3');
    expect(render("{{ 2 * [0] | length }} {{ 'a' + 'b' }} {{ 1 + 2.5 }} {{ True + 1 }}")).toBe('2 ab 3.5 2');
  });

  it("operands Python refuses are Python's TypeError, never JavaScript's NaN or [object Object]", () => {
    expect(() => render("{{ 1 + {} }}")).toThrow("unsupported operand type(s) for +: 'int' and 'dict'");
    expect(() => render("{{ 'id_' + 7 }}")).toThrow('can only concatenate str (not "int") to str');
    expect(() => render("{{ 'x' * 'y' }}")).toThrow("can't multiply sequence by non-int of type 'str'");
    expect(() => render("{{ none - 1 }}")).toThrow("unsupported operand type(s) for -: 'NoneType' and 'int'");
    expect(() => render("{{ [1] % 2 }}")).toThrow("unsupported operand type(s) for %: 'list' and 'int'");
  });

  it('tests: is none, is sequence, is mapping, is in', () => {
    expect(render("{{ none is none }} {{ [1] is sequence }} {{ {} is mapping }} {{ [1, none, 2] | reject('none') | join(',') }}"))
      .toBe('True True True 1,2');
  });

  it('run_query returns an agate-like table; statement + load_result; execute', () => {
    const sql = [
      "{% set r = run_query('select method, amount from payments order by method') %}",
      "{% if execute %}{{ r.columns[0].values() | join(',') }} {{ r.rows[1][1] }} {{ r.rows[0]['method'] }} {{ r.column_names | join(',') }}",
      "{% for row in r %}[{{ row.method }}]{% endfor %}{% endif %}",
      "{% call statement('total', fetch_result=True) %}select sum(amount) as s from payments{% endcall %}",
      "{{ load_result('total').table.rows[0][0] }} {{ load_result('total').data[0][0] }}",
    ].join(' ');
    const out = render(sql, { warehouse: (db) => db.exec("create table payments (method text, amount int); insert into payments values ('card', 10), ('cash', 5)") });
    expect(out).toBe('card,cash 5 card method,amount [card][cash]  15 15');
  });

  it('adapter.get_relation, get_columns_in_relation, dispatch; api.Relation.create; load_relation', () => {
    const macros = '{% macro default__greet(x) %}hello {{ x }}{% endmacro %}{% macro greet(x) %}{{ adapter.dispatch("greet")(x) }}{% endmacro %}';
    const sql = [
      "{% set rel = adapter.get_relation(database=this.database, schema=this.schema, identifier='payments') %}",
      "{{ rel }} {{ rel.is_table }} {{ adapter.get_relation('main', 'main', 'nope') is none }}",
      "{{ adapter.get_columns_in_relation(rel) | map(attribute='name') | join(',') }}",
      "{{ (adapter.get_columns_in_relation(rel) | first).data_type }} {{ greet('you') }}",
      "{{ load_relation(api.Relation.create(identifier='payments')) is not none }}",
    ].join(' ');
    const out = render(sql, { macros, warehouse: (db) => db.exec('create table payments (method text, amount int)') });
    expect(out).toBe('"main"."payments" True True method,amount character varying(256) hello you True');
  });

  it('modules.datetime, run_started_at, invocation_id, target, log', () => {
    const sql = [
      "{% set d = modules.datetime.datetime(2026, 9, 1) %}",
      "{{ d.strftime('%Y%m%d') }} {{ (d + modules.datetime.timedelta(days=30)).isoformat() }}",
      "{{ modules.datetime.date(2026, 1, 31).isoformat() }} {{ modules.datetime.datetime.strptime('2026-02-03', '%Y-%m-%d').day }}",
      "{{ run_started_at.strftime('%Y-%m-%d %H:%M') }} {{ run_started_at }}",
      "{{ target.type }} {{ log('hidden') }}|",
    ].join(' ');
    expect(render(sql)).toBe('20260901 2026-10-01T00:00:00 2026-01-31 3 2026-09-02 03:04 2026-09-02 03:04:05.678000+00:00 sqlite |');
  });

  it('{% test %} blocks in macro files define test_<name> macros', () => {
    const macros = '{% test positive(model, column_name) %}select * from {{ model }} where {{ column_name }} <= 0{% endtest %}';
    expect(render("{{ test_positive(model='t', column_name='x') }}", { macros })).toBe('select * from t where x <= 0');
  });
});

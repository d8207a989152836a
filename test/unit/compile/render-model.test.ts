import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../../src/api/session.js';
import { renderModel } from '../../../src/compile/render-model.js';
import type { ModelNode } from '../../../src/compile/manifest.js';
import { openWarehouse } from '../../../src/engine/open-warehouse.js';
import { PARSE_CONTEXT } from '../../../src/invocation/run-context.js';
import { planNode } from '../../../src/plan/plan-node.js';
import { warehouseFacts } from '../../../src/state/warehouse-facts.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { writeProject } from '../../support/example-project.js';

const PROJECT = `name: shop
vars:
  region: eu
  shop:
    scoped: from-project-scope
models:
  +tags: [all]
  marts:
    +materialized: table
    +tags: [finance]
`;

function session(files: Record<string, string>, vars: Record<string, unknown> = {}) {
  const dir = writeProject({ 'project.yml': PROJECT, ...files });
  return { dir, ...loadSession({ projectDir: dir, vars }) };
}

function model(s: ReturnType<typeof session>, name: string): ModelNode {
  const node = s.manifest.models.get(name);
  if (!node) throw new Error(`no model ${name}`);
  return node;
}

describe('rendering models', () => {
  it('renders ref, source and this schema-qualified, as dbt-sqlite does', () => {
    const s = session({
      'models/a.sql': 'select 1 as id',
      'models/b.sql': "select * from {{ ref('a') }} join {{ source('raw', 'events') }} -- {{ this }} {{ this.name }}",
      'models/sources.yml': 'sources:\n  - name: raw\n    tables:\n      - name: events\n        identifier: raw_events\n',
    });
    expect(renderModel(s.manifest, model(s, 'b'), { incremental: false }).sql).toBe('select * from "main"."a" join "main"."raw_events" -- "main"."b" b');
    expect(model(s, 'b').dependsOn).toEqual(['model.shop.a', 'source.shop.raw.events']);
  });

  it('resolves vars: --vars over project-scoped over project globals, defaults, and a clear error naming the file', () => {
    const files = { 'models/v.sql': "select '{{ var('region') }}', '{{ var('scoped') }}', '{{ var('missing', 'dflt') }}'", 'models/w.sql': "select {{ var('nope') }}" };
    const plain = session(files);
    expect(renderModel(plain.manifest, model(plain, 'v'), { incremental: false }).sql).toBe("select 'eu', 'from-project-scope', 'dflt'");
    const overridden = session(files, { region: 'us', scoped: 'cli' });
    expect(renderModel(overridden.manifest, model(overridden, 'v'), { incremental: false }).sql).toBe("select 'us', 'cli', 'dflt'");
    expect(() => renderModel(plain.manifest, model(plain, 'w'), { incremental: false })).toThrow(/Required var 'nope' not found for model 'w' \(models\/w\.sql\)/);
    try {
      renderModel(plain.manifest, model(plain, 'w'), { incremental: false });
    } catch (err) {
      expect((err as ProjectError).location).toMatchObject({ file: 'models/w.sql', line: 1 });
    }
  });

  it('applies config precedence: config() over yml over folder configs; tags add up', () => {
    const s = session({
      'models/marts/m.sql': "{{ config(alias='m_final', unique_key=['a', 'b']) }}select 1 as a, 2 as b",
      'models/marts/n.sql': 'select 1 as a',
      'models/schema.yml': 'models:\n  - name: m\n    config:\n      materialized: view\n      alias: from_yml\n      tags: yml_tag\n  - name: n\n    config:\n      materialized: incremental\n',
    });
    expect(model(s, 'm').config).toMatchObject({ materialized: 'view', alias: 'm_final', unique_key: ['a', 'b'], tags: ['all', 'finance', 'yml_tag'] });
    expect(model(s, 'm').alias).toBe('m_final');
    expect(model(s, 'n').config.materialized).toBe('incremental');
  });

  it("takes a macro's output given to config() as its text, as dbt does", () => {
    const s = session({
      'macros/choose.sql': "{% macro mat() %}{{ 'table' if var('region') == 'eu' else 'view' }}{% endmacro %}",
      'models/staging/q.sql': "{{ config(materialized=mat(), tags=[mat()], meta={'kind': mat()}) }}select 1 as a",
    });
    const config = model(s, 'q').config;
    expect(config.materialized).toBe('table');
    expect(typeof config.materialized).toBe('string');
    expect(config.tags).toEqual(['all', 'table']);
    expect(JSON.parse(JSON.stringify(config.meta))).toEqual({ kind: 'table' });
    expect(typeof (config.meta as Record<string, unknown>).kind).toBe('string');
  });

  it('answers is_incremental() as dbt does: a table exists, the model is incremental, no full refresh applies (decided by the build mode)', () => {
    const s = session({
      'models/inc.sql': "{{ config(materialized='incremental') }}select {% if is_incremental() %}'inc'{% else %}'full'{% endif %} as k",
      'models/guarded.sql': "{{ config(materialized='incremental', full_refresh=false) }}select {% if is_incremental() %}'inc'{% else %}'full'{% endif %} as k",
      'models/tbl.sql': "{{ config(materialized='table') }}select {% if is_incremental() %}'inc'{% else %}'full'{% endif %} as k",
    });
    const db = openWarehouse(join(s.dir, 'w.db'));
    const planned = (name: string, fullRefresh = false) =>
      planNode({ facts: warehouseFacts(db), manifest: s.manifest, node: model(s, name), context: { ...PARSE_CONTEXT, fullRefresh, vars: s.manifest.vars } });
    expect(planned('inc').sql).toBe("select 'full' as k");
    db.exec('create view inc as select 1 as k');
    expect(planned('inc')).toMatchObject({ sql: "select 'full' as k", mode: 'full', reason: 'the existing relation is a view' });
    db.exec('drop view inc; create table inc (k); create table guarded (k); create table tbl (k)');
    expect(planned('inc')).toMatchObject({ sql: "select 'inc' as k", mode: 'incremental' });
    expect(planned('inc', true)).toMatchObject({ sql: "select 'full' as k", mode: 'full', reason: '--full-refresh' });
    expect(planned('guarded', true)).toMatchObject({ sql: "select 'inc' as k", mode: 'incremental' });
    expect(planned('tbl').sql).toBe("select 'full' as k");
    db.close();
  });

  it('captures a ref used only inside is_incremental() as a dependency', () => {
    const s = session({
      'models/a.sql': 'select 1 as id',
      'models/b.sql': "{{ config(materialized='incremental') }}select 1 as id{% if is_incremental() %} from {{ ref('a') }}{% endif %}",
      'models/c.sql': "-- depends_on: {{ ref('a') }}\nselect 2 as id",
    });
    expect(model(s, 'b').dependsOn).toEqual(['model.shop.a']);
    expect(model(s, 'c').dependsOn).toEqual(['model.shop.a']);
  });

  it('makes every macro callable without an import, with keyword arguments and the calling model as this', () => {
    const s = session({
      'macros/money.sql': '{% macro cents(column, scale=100) %}round({{ column }} * {{ scale }}){% endmacro %}\n{% macro me() %}{{ this }}{% endmacro %}',
      'macros/other.sql': "{% macro both(c) %}{{ cents(c, scale=10) }}{% endmacro %}",
      'models/p.sql': "select {{ cents('amount') }}, {{ both('x') }}, {{ me() }}",
    });
    expect(renderModel(s.manifest, model(s, 'p'), { incremental: false }).sql).toBe('select round(amount * 100), round(x * 10), "main"."p"');
  });

  it('supports the Jinja dbt projects write: set lists and dicts, loop.last, ~, is none, whitespace control, Python methods', () => {
    const s = session({
      'models/j.sql': [
        "{%- set methods = ['card', 'bank_transfer', 'gift_card'] -%}",
        "{%- set labels = {'card': 'Card', 'gift_card': 'Gift'} -%}",
        '{%- set nothing = none -%}',
        'select',
        '{%- for m in methods %}',
        "  sum(case when method = '{{ m }}' then amount else 0 end) as {{ m ~ '_amount' }}{% if not loop.last %},{% endif %}",
        '{%- endfor %}',
        "{%- for k, v in labels.items() %} -- {{ k.upper() }}={{ v.lower() }}{% endfor %}",
        "{%- if nothing is none %} -- none{% endif %}",
        " -- {{ 'stg_orders'.startswith('stg_') }} {{ '  pad '.strip() }} {{ 'a,b'.split(',') | join('|') }} {{ '{}_{}'.format('x', 1) }} {{ labels.get('bank', 'n/a') }}",
      ].join('\n'),
    });
    expect(renderModel(s.manifest, model(s, 'j'), { incremental: false }).sql).toBe([
      'select',
      "  sum(case when method = 'card' then amount else 0 end) as card_amount,",
      "  sum(case when method = 'bank_transfer' then amount else 0 end) as bank_transfer_amount,",
      "  sum(case when method = 'gift_card' then amount else 0 end) as gift_card_amount -- CARD=card -- GIFT_CARD=gift -- none",
      ' -- True pad a|b x_1 n/a',
    ].join('\n'));
  });

  it('reports a runtime template error with the file and the 1-based line', () => {
    try {
      session({ 'models/e.sql': 'select 1\n\n{{ nope() }}' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProjectError);
      expect((err as ProjectError).format()).toMatch(/^models\/e\.sql:3: 'nope' is not a macro or function/);
    }
  });

  it('reads env_var with a default and fails clearly without one', () => {
    process.env.MINI_DBT_TEST_SCHEMA = 'analytics';
    const s = session({ 'models/e.sql': "select '{{ env_var('MINI_DBT_TEST_SCHEMA') }}', '{{ env_var('MINI_DBT_UNSET_X', 'fallback') }}'" });
    expect(renderModel(s.manifest, model(s, 'e'), { incremental: false }).sql).toBe("select 'analytics', 'fallback'");
    // Like dbt, a missing env var is a parse-time error: the project does not load.
    expect(() => session({ 'models/f.sql': "select\n'{{ env_var('MINI_DBT_UNSET_Y') }}'" })).toThrow(/Env var required but not provided: 'MINI_DBT_UNSET_Y'/);
  });
});

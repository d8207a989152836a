/**
 * A generated project of N models written the way people write dbt models,
 * not only the templates the compile's fast path (src/compile/jinja/
 * simple-template.ts) was shaped for: `{% set %}` of lists and dicts,
 * `{% for %}` loops (over columns, over the inputs a model ref()s, with
 * `loop.last`), macros with keyword arguments and defaults called with
 * keywords, config() with conditional expressions (`materialized='table' if
 * var('...') else 'view'`) and string concatenation, var() with defaults,
 * `{% if is_incremental() %}` blocks, a custom generic test, tags and nested
 * folder configs in project.yml, and property yml files describing every
 * model, with not_null/unique/accepted_values/relationships data tests.
 *
 * Shape: staging views over two seeds (10%), chains of about 20 intermediate
 * models each ref()ing the one before (60%), fan-in marts unioning 2 to 4
 * earlier models in a loop (30%, half of them incremental), in folders of 250.
 * Every model is valid SQL over the seeds (the 1,000-model project builds
 * and its data tests pass). Deterministic.
 */
import type { GeneratedProject } from './generated-project.js';
import { mulberry32 } from '../src/feed/seeded-random.js';
import { projectWriter } from './project-writer.js';

const PROJECT_YML = `name: realistic
database: warehouse.db

vars:
  region: eu
  min_amount: 10
  lookback_days: 3
  materialize_chains: false
  currencies: [eur, usd, gbp]
  statuses: {open: placed, done: delivered}

models:
  +materialized: view
  staging:
    +tags: [staging]
    web:
      +tags: [web]
    shop:
      +tags: [shop]
  intermediate:
    +tags: [intermediate]
  marts:
    +materialized: table
    +tags: [marts]
    finance:
      +tags: [finance]
    product:
      +tags: [product]
`;

const MACROS = `{% macro cents(column, factor=100) -%}
  cast(round({{ column }} * {{ factor }}) as integer)
{%- endmacro %}

{% macro money(column, scale=2, default=0) -%}
  round(coalesce({{ column }}, {{ default }}), {{ scale }})
{%- endmacro %}

{% macro recent(column, days=none, relation=none) -%}
  {%- set window = days if days is not none else var('lookback_days', 3) -%}
  {{ column }} >= (select date(max({{ column }}), '-{{ window }} days') from {{ relation if relation is not none else this }})
{%- endmacro %}

{% macro tagged(name, prefix=none, upper=true) -%}
  {%- set p = prefix or var('region', 'eu') -%}
  '{{ p }}:{{ name | upper if upper else name }}'
{%- endmacro %}

{% macro select_columns(columns, prefix='') -%}
  {%- for column in columns %}
  {{ prefix }}{{ column }}{{ ',' if not loop.last }}
  {%- endfor %}
{%- endmacro %}
`;

const TEST_MACROS = `{% test non_negative(model, column_name) %}
select * from {{ model }} where {{ column_name }} < 0
{% endtest %}
`;

const STATUSES = ['placed', 'delivered', 'refunded'];

function seedCsvs(): { events: string; customers: string } {
  const events = Array.from({ length: 40 }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    return `${i + 1},${(i % 8) + 1},${(i * 7.5 + 3).toFixed(2)},${STATUSES[i % 3]},2026-09-${day}`;
  });
  const customers = Array.from({ length: 8 }, (_, i) => `${i + 1},customer ${i + 1},${i % 2 === 0 ? 'eu' : 'us'}`);
  return { events: `id,customer_id,amount,status,event_date\n${events.join('\n')}\n`, customers: `customer_id,name,region\n${customers.join('\n')}\n` };
}

const pad = (i: number) => String(i).padStart(5, '0');

/** The columns every model passes on (staging adds them, chains and marts keep them). */
const COLUMNS = ['id', 'customer_id', 'amount', 'status', 'event_date'];

function stagingSql(name: string, web: boolean): string {
  return `{{ config(tags=['src_' ~ var('region', 'eu')], alias='${name}') }}
{%- set columns = ${JSON.stringify(COLUMNS).replaceAll('"', "'")} %}
{%- set min_amount = var('min_amount', 0) %}
with source as (
    select * from {{ ref('events') }}
    {%- if ${web ? 'true' : 'false'} and min_amount > 0 %}
    where amount >= {{ min_amount }}
    {%- endif %}
)

select
    {{- select_columns(columns, prefix='source.') }},
    {{ cents('amount', factor=100) }} as amount_cents,
    {{ tagged('${name}', upper=false) }} as source_name,
    customers.region
from source
left join {{ ref('customers') }} as customers using (customer_id)
`;
}

function chainSql(name: string, previous: string, step: number): string {
  return `{{ config(materialized='table' if var('materialize_chains', false) else 'view', tags=['chain_' ~ ${step % 4}]) }}
{%- set measures = {'amount_cents': cents('amount'), 'amount_eur': money('amount', scale=2)} %}
{# step ${step} of its chain: a light reshaping of the model before it #}
select
    {{- select_columns(${JSON.stringify(COLUMNS).replaceAll('"', "'")}) }},
    {%- for alias, expression in measures | dictsort %}
    {{ expression }} as {{ alias }},
    {%- endfor %}
    source_name,
    region
from {{ ref('${previous}') }}
where status in ({% for s in var('statuses').values() %}'{{ s }}', {% endfor %}'refunded')
`;
}

function martSql(inputs: readonly string[], incremental: boolean, folder: string): string {
  const config = incremental
    ? `{{ config(
    materialized='incremental' if var('incremental_marts', true) else 'table',
    unique_key='id',
    incremental_strategy='delete+insert',
    tags=['fan', '${folder}'],
) }}`
    : `{{ config(materialized='table', tags=['fan'] + (['big'] if ${inputs.length} > 3 else [])) }}`;
  return `${config}
{%- set inputs = ${JSON.stringify(inputs).replaceAll('"', "'")} %}
with unioned as (
    {%- for input in inputs %}
    select id, customer_id, amount, status, event_date from {{ ref(input) }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

select
    id,
    max(customer_id) as customer_id,
    {{ money('sum(amount)', scale=2) }} as amount,
    max(status) as status,
    max(event_date) as event_date,
    count(*) as inputs
from unioned
{% if is_incremental() -%}
where {{ recent('event_date', days=var('lookback_days', 3)) }}
{% endif -%}
group by id
`;
}

interface Entry {
  readonly name: string;
  readonly kind: 'staging' | 'chain' | 'mart';
  readonly staging: string;
}

function propertiesEntry(e: Entry, n: number): string {
  const lines = [`  - name: ${e.name}`, `    description: "${e.kind} model ${e.name}: one row per order."`, '    columns:', '      - name: id', '        description: The order id.'];
  const tests: string[] = [];
  if (n % 2 === 0) tests.push('          - not_null');
  if (n % 4 === 0) tests.push('          - unique');
  if (tests.length > 0) lines.push('        data_tests:', ...tests);
  if (e.kind !== 'mart' && n % 5 === 1) {
    lines.push('      - name: status', '        description: Where the order stands.', '        data_tests:', '          - accepted_values:', `              values: [${STATUSES.map((s) => `'${s}'`).join(', ')}]`);
  }
  if (e.kind === 'mart' && n % 3 === 0) {
    lines.push('      - name: customer_id', '        data_tests:', '          - relationships:', "              to: ref('customers')", '              field: customer_id');
    lines.push('      - name: amount', '        data_tests:', '          - non_negative');
  }
  return lines.join('\n');
}

export function writeRealisticProject(dir: string, models: number, seed = 11): GeneratedProject {
  const random = mulberry32(seed);
  const write = projectWriter(dir);
  write('project.yml', PROJECT_YML);
  write('macros/helpers.sql', MACROS);
  write('macros/tests/non_negative.sql', TEST_MACROS);
  const seeds = seedCsvs();
  write('seeds/events.csv', seeds.events);
  write('seeds/customers.csv', seeds.customers);

  const staging = Math.max(1, Math.round(models * 0.1));
  const chains = Math.max(0, Math.round(models * 0.6));
  const fans = models - staging - chains;
  const entries: Entry[] = [];
  const properties = new Map<string, string[]>();
  const emit = (folder: string, entry: Entry, sql: string) => {
    const group = `${folder}/group_${pad(Math.floor(entries.length / 250))}`;
    write(`models/${group}/${entry.name}.sql`, sql);
    const list = properties.get(group) ?? [];
    list.push(propertiesEntry(entry, entries.length));
    properties.set(group, list);
    entries.push(entry);
  };

  for (let i = 0; i < staging; i++) {
    const web = i % 2 === 0;
    const name = `stg_${pad(i)}`;
    emit(`staging/${web ? 'web' : 'shop'}`, { name, kind: 'staging', staging: name }, stagingSql(name, web));
  }
  for (let i = 0; i < chains; i++) {
    const previous = i % 20 === 0 ? entries[Math.floor(random() * staging)]! : entries[entries.length - 1]!;
    const name = `int_${pad(i)}`;
    emit('intermediate', { name, kind: 'chain', staging: previous.staging }, chainSql(name, previous.name, i % 20));
  }
  for (let i = 0; i < fans; i++) {
    const inputs = new Set<string>();
    const wanted = 2 + Math.floor(random() * 3);
    while (inputs.size < wanted) inputs.add(entries[Math.floor(random() * entries.length)]!.name);
    const folder = i % 2 === 0 ? 'finance' : 'product';
    const name = `fan_${pad(i)}`;
    emit(`marts/${folder}`, { name, kind: 'mart', staging: '' }, martSql([...inputs], i % 2 === 0, folder));
  }
  for (const [group, list] of properties) write(`models/${group}/schema.yml`, `version: 2\n\nmodels:\n${list.join('\n\n')}\n`);
  return { dir, models: entries.length };
}

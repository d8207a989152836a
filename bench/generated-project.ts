/**
 * A generated mini-dbt project of N models for the compile and run figures:
 * staging views over a seed (10%), chains of intermediate models each
 * ref()ing the one before (60%), and fan-in marts joining 2 to 4 earlier
 * models (30%, a third of them incremental), spread over folders of 250
 * models; project vars and folder configs, three macros every model calls,
 * config() blocks, var() calls and property yml files. Deterministic.
 */
import { mulberry32 } from '../src/feed/seeded-random.js';
import { projectWriter } from './project-writer.js';

export interface GeneratedProject {
  readonly dir: string;
  readonly models: number;
}

const PROJECT_YML = `name: generated
database: warehouse.db
vars:
  region: eu
  min_amount: 10
  lookback_days: 3
models:
  staging:
    +materialized: view
  intermediate:
    +materialized: view
    +tags: [intermediate]
  marts:
    +materialized: table
    +tags: [finance]
`;

const MACROS = `{% macro cents(column) -%}
  cast(round({{ column }} * 100) as integer)
{%- endmacro %}

{% macro recent(column) -%}
  {{ column }} >= date((select max({{ column }}) from {{ this }}), '-{{ var('lookback_days') }} days')
{%- endmacro %}

{% macro tagged(name) -%}
  '{{ var('region') }}:{{ name | upper }}'
{%- endmacro %}
`;

const SEED_CSV = `id,amount,event_date
${Array.from({ length: 20 }, (_, i) => `${i + 1},${(i * 7.5 + 3).toFixed(2)},2026-09-${String((i % 28) + 1).padStart(2, '0')}`).join('\n')}
`;

const pad = (i: number) => String(i).padStart(5, '0');

export function writeGeneratedProject(dir: string, models: number, seed = 7): GeneratedProject {
  const random = mulberry32(seed);
  const write = projectWriter(dir);
  write('project.yml', PROJECT_YML);
  write('macros/helpers.sql', MACROS);
  write('seeds/events.csv', SEED_CSV);

  const staging = Math.max(1, Math.round(models * 0.1));
  const chains = Math.max(0, Math.round(models * 0.6));
  const fans = models - staging - chains;
  const names: string[] = [];
  const properties = new Map<string, string[]>();
  const emit = (folder: string, name: string, sql: string) => {
    const group = `${folder}/group_${pad(Math.floor(names.length / 250))}`;
    write(`models/${group}/${name}.sql`, sql);
    names.push(name);
    if (names.length % 5 === 0) {
      const list = properties.get(group) ?? [];
      list.push(`  - name: ${name}\n    description: generated model ${name}\n    columns:\n      - name: id\n        description: the key`);
      properties.set(group, list);
    }
  };

  for (let i = 0; i < staging; i++) {
    emit('staging', `stg_${pad(i)}`, `select id, amount, event_date, {{ tagged('stg_${pad(i)}') }} as source
from {{ ref('events') }}
where amount >= {{ var('min_amount') }}
`);
  }
  for (let i = 0; i < chains; i++) {
    // Chains of about 20: the first link reads a staging model, the others the link before.
    const previous = i % 20 === 0 ? `stg_${pad(Math.floor(random() * staging))}` : `int_${pad(i - 1)}`;
    emit('intermediate', `int_${pad(i)}`, `{{ config(alias='int_${pad(i)}') }}
select id, {{ cents('amount') }} as amount_cents, amount, event_date, source
from {{ ref('${previous}') }}
`);
  }
  for (let i = 0; i < fans; i++) {
    const inputs = new Set<string>();
    const wanted = 2 + Math.floor(random() * 3);
    while (inputs.size < wanted) inputs.add(names[Math.floor(random() * names.length)]!);
    const incremental = i % 3 === 0;
    const config = incremental
      ? `{{ config(materialized='incremental', unique_key='id', incremental_strategy='delete+insert', tags=['fan']) }}\n`
      : `{{ config(tags=['fan']) }}\n`;
    const unions = [...inputs].map((input) => `select id, amount, event_date from {{ ref('${input}') }}`).join('\n  union all\n  ');
    emit('marts', `fan_${pad(i)}`, `${config}with inputs as (
  ${unions}
)
select id, sum(amount) as amount, max(event_date) as event_date
from inputs
{% if is_incremental() %}where {{ recent('event_date') }}{% endif %}
group by id
`);
  }
  for (const [group, entries] of properties) write(`models/${group}/schema.yml`, `version: 2\n\nmodels:\n${entries.join('\n')}\n`);
  return { dir, models: names.length };
}

import { miniProject, type MiniProject } from './strategy-project.js';

/** A keyed incremental model over raw.events whose SELECT list a test changes between runs. */
export function schemaChangeProject(mode: string, columns = 'id, cast(amount as real) as amount, note'): MiniProject & { select(columns: string): void } {
  const model = (cols: string) => `{{ config(materialized='incremental', unique_key='id', on_schema_change='${mode}') }}
select ${cols} from {{ source('raw', 'events') }}
{% if is_incremental() %}where id > (select max(id) from {{ this }}){% endif %}
`;
  const p = miniProject({ 'models/m.sql': model(columns) });
  p.exec(`create table events (id integer, amount text, note text, extra text);
    insert into events values (1, '10', 'a', 'x1'), (2, '20', 'b', 'x2');`);
  return Object.assign(p, { select: (cols: string) => p.write('models/m.sql', model(cols)) });
}

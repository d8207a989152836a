import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * regexp_replace in a model's SQL gives the same rows on SQLite (mini-dbt's function on its
 * connections) as on PostgreSQL (its own): dbt_project_evaluator's int_all_graph_resources takes a
 * file's name from its path with regexp_replace (everything up to the last slash dropped).
 */
describeEachEngine('regexp_replace', (engine) => {
  it("replaces as PostgreSQL's does: first match, g, i, groups, POSIX classes, newline-sensitive n", () => {
    const p = conformanceProject({
      'seeds/paths.csv': 'id,path\n1,models/staging/stg_orders.sql\n2,C:\\dir\\file.sql\n3,Order-2024-05\n',
      'models/names.sql': `{{ config(materialized='table') }}
select id,
  regexp_replace(path, '.*/', '') as file_name,
  regexp_replace(path, '.*\\\\', '') as windows_name,
  regexp_replace(path, '[[:digit:]]+', '#') as first_number,
  regexp_replace(path, '[[:digit:]]+', '#', 'g') as every_number,
  regexp_replace(path, 'o', '0', 'gi') as zeros,
  regexp_replace(path, '^([A-Za-z]+)-(.*)$', '\\2 (\\1)') as swapped,
  regexp_replace('a
b', 'a.b', 'x') as dot_newline,
  regexp_replace('a
b', 'a.b', 'x', 'n') as dot_newline_n
from {{ ref('paths') }}
`,
    }, 'regexps', { engine });
    const build = p.dbt(['build']);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(p.rows('names', 'id').map((r) => ({ ...r, id: Number(r.id) }))).toEqual([
      { id: 1, file_name: 'stg_orders.sql', windows_name: 'models/staging/stg_orders.sql', first_number: 'models/staging/stg_orders.sql', every_number: 'models/staging/stg_orders.sql', zeros: 'm0dels/staging/stg_0rders.sql', swapped: 'models/staging/stg_orders.sql', dot_newline: 'x', dot_newline_n: 'a\nb' },
      { id: 2, file_name: 'C:\\dir\\file.sql', windows_name: 'file.sql', first_number: 'C:\\dir\\file.sql', every_number: 'C:\\dir\\file.sql', zeros: 'C:\\dir\\file.sql', swapped: 'C:\\dir\\file.sql', dot_newline: 'x', dot_newline_n: 'a\nb' },
      { id: 3, file_name: 'Order-2024-05', windows_name: 'Order-2024-05', first_number: 'Order-#-05', every_number: 'Order-#-#', zeros: '0rder-2024-05', swapped: '2024-05 (Order)', dot_newline: 'x', dot_newline_n: 'a\nb' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** dbt's `graph` context variable: the manifest's nodes and sources as dicts, on the run's renders (macros walk it, as many packages do). */
describe('the graph variable', () => {
  const dir = writeProject({
    'project.yml': 'name: shop\ndatabase: warehouse.db\non-run-end:\n  - "{{ log(\'end sees \' ~ (graph.nodes.values() | selectattr(\'resource_type\', \'equalto\', \'model\') | list | length) ~ \' models\', info=True) }}"\n',
    'seeds/orders.csv': 'id,amount\n1,10\n',
    'models/sources.yml': 'version: 2\nsources:\n  - name: raw\n    tables:\n      - name: payments\n',
    'models/stg.sql': "select * from {{ ref('orders') }}\n",
    'models/report.sql': `{% if execute %}
{% for node in graph.nodes.values() | selectattr("resource_type", "equalto", "model") | sort(attribute="name") %}{{ log("model " ~ node.name ~ " in " ~ node.original_file_path ~ " depends on " ~ node.depends_on.nodes, info=True) }}{% endfor %}
{{ log("sources: " ~ (graph.sources.values() | map(attribute="name") | list), info=True) }}
{% endif %}
select * from {{ ref('stg') }}
`,
    'macros/names.sql': "{% macro names() %}{{ log(graph.nodes.keys() | list | sort, info=True) }}{% endmacro %}\n",
  });

  it('lists the models with their dicts (name, path, depends_on), the sources, in a model, an on-run-end hook and run-operation', () => {
    expect(runCli(['seed', '--project-dir', dir]).code).toBe(0);
    const run = runCli(['run', '--project-dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("model report in models/report.sql depends on ['model.shop.stg']");
    expect(run.stdout).toContain("model stg in models/stg.sql depends on ['seed.shop.orders']");
    expect(run.stdout).toContain("sources: ['payments']");
    expect(run.stdout).toContain('end sees 2 models');
    expect(runCli(['run-operation', 'names', '--project-dir', dir]).stdout).toContain("['model.shop.report', 'model.shop.stg', 'seed.shop.orders']");
  });
});

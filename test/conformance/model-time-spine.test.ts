import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * A model's `time_spine:` (MetricFlow's) as dbt's manifest and graph variable carry it: null unless
 * its properties declare one (dbt_project_evaluator's fct_root_models leaves time spines out with
 * `rejectattr("time_spine", "none")`).
 */
describeEachEngine("models' time_spine", (engine) => {
  it('is the declared time spine, null for the other models', () => {
    const p = conformanceProject({
      'models/all_days.sql': "select cast('2024-01-01' as date) as date_day\n",
      'models/orders.sql': 'select 1 as id\n',
      'models/schema.yml': 'version: 2\nmodels:\n  - name: all_days\n    time_spine:\n      standard_granularity_column: date_day\n',
      'models/spines.sql': `{{ config(materialized='table') }}
{% set names = [] %}
{% if execute %}{% for n in graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | rejectattr('time_spine', 'none') %}{% do names.append(n.name ~ ':' ~ n.time_spine.standard_granularity_column) %}{% endfor %}{% endif %}
select '{{ names | sort | join(",") }}' as spines
`,
    }, 'spines', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(p.rows('spines')).toEqual([{ spines: 'all_days:date_day' }]);
    const nodes = (JSON.parse(readFileSync(join(p.dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, { time_spine: unknown }> }).nodes;
    expect(nodes['model.spines.all_days']!.time_spine).toEqual({ standard_granularity_column: 'date_day', custom_granularities: [] });
    expect(nodes['model.spines.orders']!.time_spine).toBeNull();
  });
});

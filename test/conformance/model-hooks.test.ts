import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * ref() in a model's hook is a dependency, as dbt captures it (dbt-tests-adapter
 * hooks/: a post-hook writing into another model's table): that model is built
 * first, and `ls` shows the edge.
 */
describeEachEngine('ref() inside a hook', (engine) => {
  it('makes the referenced model a parent: it is built first, and the hook writes into it', () => {
    const p = conformanceProject({
      // Named so that alphabetical order would build `a_orders` first: only the captured ref puts `z_audit` before it.
      'models/z_audit.sql': "{{ config(materialized='table') }}\nselect 'start' as event, 0 as n\n",
      'models/a_orders.sql': `{{ config(materialized='table', post_hook="insert into {{ ref('z_audit') }} select 'orders built', count(*) from {{ this }}") }}
select 1 as id union all select 2
`,
    }, 'hook_refs', { engine });
    const ls = p.dbt(['ls', '-s', '+a_orders', '--resource-type', 'model']);
    expect(ls.stdout.trim().split('\n')).toEqual(['hook_refs.z_audit', 'hook_refs.a_orders']);
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(p.rows('z_audit', 'event')).toEqual([{ event: 'orders built', n: 2 }, { event: 'start', n: 0 }]);
  });
});

describeEachEngine('pre_hook and pre-hook in one config() (DuplicateHooksInConfigs)', (engine) => {
  it('is refused as dbt refuses it, naming both spellings, and nothing runs', () => {
    const p = conformanceProject({
      'models/hooks.sql': `{{ config({"pre_hook": "select 1", "pre-hook": "select 2"}) }}\nselect 1 as id\n`,
    }, 'hook_refs', { engine });
    const run = p.dbt(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pre_hook and pre-hook are the same config and cannot both be set');
    expect(p.relationType('hooks')).toBeUndefined();
  });
});

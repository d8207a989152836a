import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';
import { miniProject } from '../support/strategy-project.js';

/** The engine loop of the conformance helpers: the same project, built and read on each engine. */
describeEachEngine('a project helper builds and reads its warehouse on the engine asked for', (engine) => {
  it('conformanceProject: seed, run, rows, kinds, columns, copy', () => {
    const p = conformanceProject({
      'seeds/people.csv': 'id,name\n1,ann\n2,bob\n',
      'models/people_view.sql': "{{ config(materialized='view') }}\nselect id, name from {{ ref('people') }}\n",
      'models/people_table.sql': "{{ config(materialized='table') }}\nselect id, name from {{ ref('people_view') }}\n",
    }, 'helper', { engine });
    expect(p.engine).toBe(engine);
    const out = p.dbt(['build']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(p.rows('people_table')).toEqual([{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]);
    expect(p.relationType('people_view')).toBe('view');
    expect(p.relationType('people_table')).toBe('table');
    expect(p.relationType('nope')).toBeUndefined();
    expect(p.columns('people_table')).toEqual(['id', 'name']);
    expect(p.difference('people_view', 'people_table')).toBe(0);
    const q = p.copy();
    q.exec("insert into people values (3, 'cy')");
    expect(q.count('people')).toBe(3);
    expect(p.count('people')).toBe(2);
  });

  it('miniProject: build through the API, ledger and snapshot', async () => {
    const p = miniProject({ 'models/m.sql': "{{ config(materialized='table') }}\nselect 1 as id\n" }, 'name: shop\n', { engine });
    await p.buildOk();
    expect(p.rows('m')).toEqual([{ id: 1 }]);
    expect(p.ledger('m').map((r) => r.status)).toEqual(['success']);
    expect(Object.keys(p.snapshot())).toContain('m');
  });
});

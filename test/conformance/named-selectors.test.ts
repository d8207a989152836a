import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** dbt's selectors.yml and --selector (modelled on dbt-core's graph_selection selector tests, our own fixtures). */
describe('selectors.yml and --selector', () => {
  const SELECTORS = `selectors:
  - name: marts
    definition:
      method: path
      value: models/marts
  - name: finance_not_big
    description: tagged finance, but not big
    definition:
      union:
        - tag:finance
        - exclude:
            - method: fqn
              value: big
  - name: stg_and_after
    definition:
      method: fqn
      value: stg
      children: true
      children_depth: 1
  - name: marts_but_other
    definition:
      union:
        - method: path
          value: models/marts
          exclude:
            - method: fqn
              value: other
        - stg
  - name: both
    definition:
      intersection:
        - method: selector
          value: marts
        - method: tag
          value: finance
`;
  const project = (selectors = SELECTORS) => writeProject({
    'dbt_project.yml': "name: shop\nversion: '1.0'\n",
    'selectors.yml': selectors,
    'seeds/orders.csv': 'id,amount\n1,10\n',
    'models/stg.sql': "select * from {{ ref('orders') }}\n",
    'models/marts/big.sql': "{{ config(tags=['finance']) }}\nselect * from {{ ref('stg') }}\n",
    'models/marts/small.sql': "{{ config(tags=['finance']) }}\nselect * from {{ ref('big') }}\n",
    'models/marts/other.sql': 'select 1 as x\n',
  });
  const ls = (dir: string, ...args: string[]) => {
    const r = runCli(['ls', '--resource-type', 'model', '--output', 'name', '--project-dir', dir, ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.split('\n').filter((l) => l !== '').sort();
  };

  it('evaluates method/value, union with exclude, children with a depth, intersection and a selector naming another', () => {
    const dir = project();
    expect(ls(dir, '--selector', 'marts')).toEqual(['big', 'other', 'small']);
    expect(ls(dir, '--selector', 'finance_not_big')).toEqual(['small']);
    expect(ls(dir, '--selector', 'stg_and_after')).toEqual(['big', 'stg']);
    expect(ls(dir, '--selector', 'both')).toEqual(['big', 'small']);
    // A method item with its own exclude, inside a union, keeps its selection minus that exclude.
    expect(ls(dir, '--selector', 'marts_but_other')).toEqual(['big', 'small', 'stg']);
  });

  it('--selector ignores --select, as dbt does; run builds what it selects', () => {
    const dir = project();
    expect(ls(dir, '--selector', 'both', '--select', 'other')).toEqual(['big', 'small']);
    expect(runCli(['seed', '--project-dir', dir]).code).toBe(0);
    const run = runCli(['run', '--selector', 'stg_and_after', '--project-dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Done\. PASS=2 /);
  });

  it('a default selector is the selection of a command given none, said in one line', () => {
    const dir = project(`${SELECTORS}  - name: nightly\n    default: true\n    definition: "stg+"\n`);
    expect(ls(dir)).toEqual(['big', 'small', 'stg']);
    expect(ls(dir, '--select', 'other')).toEqual(['other']);
    // seed takes the default selector too (stg+ has no seed), so the seed is named.
    expect(runCli(['seed', '--select', 'orders', '--project-dir', dir]).code).toBe(0);
    const run = runCli(['run', '--project-dir', dir]);
    expect(run.stdout).toContain('Using default selector nightly');
    expect(run.stdout).toMatch(/Done\. PASS=3 /);
  });

  it('an unknown selector, a broken reference and two defaults are errors naming them', () => {
    const dir = project();
    const unknown = runCli(['ls', '--selector', 'mart', '--project-dir', dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Could not find selector named mart, expected one of 'marts'");
    expect(unknown.stderr).toContain("Did you mean 'marts'?");
    writeFileSync(join(dir, 'selectors.yml'), 'selectors:\n  - name: a\n    definition:\n      method: selector\n      value: nope\n');
    expect(runCli(['ls', '--selector', 'a', '--project-dir', dir]).stderr).toContain("selector 'a': it refers to selector 'nope', which selectors.yml does not define");
    writeFileSync(join(dir, 'selectors.yml'), 'selectors:\n  - name: a\n    default: true\n    definition: stg\n  - name: b\n    default: true\n    definition: big\n');
    const twice = runCli(['ls', '--project-dir', dir]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('only one selector can be the default');
  });
});

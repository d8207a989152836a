import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * dbt's grants config (dbt-tests-adapter grants/: test_model_grants, test_incremental_grants,
 * test_seed_grants, test_snapshot_grants, test_invalid_grants), read back from
 * information_schema.role_table_grants as base_grants.py does. On PostgreSQL: a rebuilt table or view is
 * a new relation (grants only); an incremental run or a snapshot keeps its relation, so what the config
 * no longer lists is revoked; a seed is reloaded into a new table every time (dbt's seeds_support_partial_refresh
 * False case). A grant that fails rolls the build back. SQLite has no privileges: the config is ignored,
 * as dbt-sqlite ignores it, with one warning a run.
 */
const USERS = ['dbt_test_user_1', 'dbt_test_user_2', 'dbt_test_user_3'] as const;
const [U1, U2, U3] = USERS;

const project = `name: grants
version: '1.0'
profile: default
models:
  grants:
    merged:
      +grants:
        select: [${U1}]
`;

const modelYml = (name: string, config: string) => `models:\n  - name: ${name}\n    config:\n${config.split('\n').map((l) => `      ${l}`).join('\n')}\n`;

describeEachEngine('grants', (engine) => {
  let p: ConformanceProject;
  beforeAll(() => {
    p = conformanceProject({ 'dbt_project.yml': project, 'models/my_model.sql': 'select 1 as fun\n', 'models/schema.yml': modelYml('my_model', `grants:\n  select: [${U1}]`) }, 'grants', { engine });
    if (engine === 'postgres') {
      // Roles are the server's, shared by every test database: made once, whoever gets there first.
      for (const user of USERS) p.exec(`do $$ begin create role ${user}; exception when duplicate_object or unique_violation then null; end $$`);
    }
  });

  /** The grants others hold on a relation, as dbt's get_show_grant_sql reads them: privilege -> sorted grantees. */
  const grantsOn = (relation: string): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    const rows = p.query(`select grantee, privilege_type from information_schema.role_table_grants where table_schema = current_schema() and table_name = '${relation}' and grantee != current_role order by 1, 2`);
    for (const row of rows) (out[String(row.privilege_type).toLowerCase()] ??= []).push(String(row.grantee));
    return out;
  };
  const runSql = (path: string) => readFileSync(join(p.dir, 'target', 'run', 'grants', path), 'utf8');
  const ok = (args: string[]) => {
    const r = p.dbt(args);
    expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    return r;
  };

  it('view and table models: granted on each build, the new relation holding only what the config lists', () => {
    const run = ok(['run']);
    if (engine === 'sqlite') {
      expect(run.stderr.match(/grants have no effect on SQLite/g)).toHaveLength(1);
      expect(run.stderr).toContain('the grants of my_model are not applied');
      expect(p.rows('my_model')).toEqual([{ fun: 1 }]);
      return;
    }
    expect(run.stderr).not.toContain('grants have no effect');
    expect(grantsOn('my_model')).toEqual({ select: [U1] });
    expect(runSql('models/my_model.sql')).toContain(`grant select on "public"."my_model" to ${U1}`);

    p.write('models/schema.yml', modelYml('my_model', `grants:\n  select: [${U2}]`));
    ok(['run']);
    expect(grantsOn('my_model')).toEqual({ select: [U2] });

    p.write('models/schema.yml', modelYml('my_model', `materialized: table\ngrants:\n  select: [${U1}]`));
    ok(['run']);
    expect(p.relationType('my_model')).toBe('table');
    expect(grantsOn('my_model')).toEqual({ select: [U1] });

    p.write('models/schema.yml', modelYml('my_model', `materialized: table\ngrants:\n  select: [${U2}]`));
    ok(['run']);
    expect(grantsOn('my_model')).toEqual({ select: [U2] });

    p.write('models/schema.yml', modelYml('my_model', `materialized: table\ngrants:\n  select: [${U1}, ${U2}]`));
    ok(['run']);
    expect(grantsOn('my_model')).toEqual({ select: [U1, U2] });

    p.write('models/schema.yml', modelYml('my_model', `materialized: table\ngrants:\n  select: [${U1}]\n  insert: [${U2}]`));
    ok(['run']);
    expect(grantsOn('my_model')).toEqual({ insert: [U2], select: [U1] });
  });

  it('incremental models: nothing issued when in place, revoked and granted when the config changes, granted again after --full-refresh', () => {
    if (engine === 'sqlite') return;
    p.write('models/my_incremental_model.sql', "{{ config(materialized='incremental') }}\nselect 1 as fun\n");
    p.write('models/schema.yml', modelYml('my_incremental_model', `grants:\n  select: [${U1}]`));
    ok(['run', '--select', 'my_incremental_model']);
    expect(grantsOn('my_incremental_model')).toEqual({ select: [U1] });

    ok(['run', '--select', 'my_incremental_model']);
    const again = runSql('models/my_incremental_model.sql');
    expect(again).not.toMatch(/\b(grant|revoke) /);
    expect(grantsOn('my_incremental_model')).toEqual({ select: [U1] });

    p.write('models/schema.yml', modelYml('my_incremental_model', `grants:\n  select: [${U2}]`));
    ok(['run', '--select', 'my_incremental_model']);
    const changed = runSql('models/my_incremental_model.sql');
    expect(changed).toContain(`revoke SELECT on "public"."my_incremental_model" from ${U1}`);
    expect(changed).toContain(`grant select on "public"."my_incremental_model" to ${U2}`);
    expect(grantsOn('my_incremental_model')).toEqual({ select: [U2] });
    expect(p.count('my_incremental_model')).toBe(3);

    ok(['run', '--select', 'my_incremental_model', '--full-refresh']);
    expect(runSql('models/my_incremental_model.sql')).not.toContain('revoke ');
    expect(grantsOn('my_incremental_model')).toEqual({ select: [U2] });

    // `select: []` on a relation that keeps its grants revokes them all; `{}` leaves them alone (dbt: a no-op).
    p.write('models/schema.yml', modelYml('my_incremental_model', 'grants:\n  select: []'));
    ok(['run', '--select', 'my_incremental_model']);
    expect(grantsOn('my_incremental_model')).toEqual({});
    p.exec(`grant select on my_incremental_model to ${U3}`);
    p.write('models/schema.yml', modelYml('my_incremental_model', 'grants: {}'));
    ok(['run', '--select', 'my_incremental_model']);
    expect(grantsOn('my_incremental_model')).toEqual({ select: [U3] });
  });

  it('+grants in dbt_project.yml: replaced per privilege by the model, extended by a +privilege', () => {
    if (engine === 'sqlite') return;
    p.write('models/merged/replaced.sql', "{{ config(materialized='table', grants={'select': ['" + U2 + "']}) }}\nselect 1 as fun\n");
    p.write('models/merged/extended.sql', "{{ config(materialized='table', grants={'+select': ['" + U2 + "'], 'insert': ['" + U3 + "']}) }}\nselect 1 as fun\n");
    p.write('models/merged/inherited.sql', "{{ config(materialized='table') }}\nselect 1 as fun\n");
    ok(['run', '--select', 'merged']);
    expect(grantsOn('replaced')).toEqual({ select: [U2] });
    expect(grantsOn('extended')).toEqual({ insert: [U3], select: [U1, U2] });
    expect(grantsOn('inherited')).toEqual({ select: [U1] });
  });

  it('a grantee or privilege the database refuses fails the model with its error, the previous relation and its grants kept', () => {
    if (engine === 'sqlite') return;
    p.write('models/my_invalid_model.sql', "{{ config(materialized='table') }}\nselect 1 as fun\n");
    p.write('models/schema.yml', modelYml('my_invalid_model', `grants:\n  select: [${U1}]`));
    ok(['run', '--select', 'my_invalid_model']);
    p.write('models/my_invalid_model.sql', "{{ config(materialized='table') }}\nselect 2 as fun\n");
    p.write('models/schema.yml', modelYml('my_invalid_model', 'grants:\n  select: [invalid_user]'));
    const bad = p.dbt(['run', '--select', 'my_invalid_model']);
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).toContain('role "invalid_user" does not exist');
    expect(p.rows('my_invalid_model')).toEqual([{ fun: 1 }]);
    expect(grantsOn('my_invalid_model')).toEqual({ select: [U1] });

    p.write('models/schema.yml', modelYml('my_invalid_model', `grants:\n  fake_privilege: [${U2}]`));
    const fake = p.dbt(['run', '--select', 'my_invalid_model']);
    expect(fake.code).toBe(1);
    expect(fake.stdout + fake.stderr).toContain('unrecognized privilege');
    expect(p.rows('my_invalid_model')).toEqual([{ fun: 1 }]);
  });

  it('seeds: granted on every load (a new table each time); grants: {} leaves the new table without any', () => {
    p.write('seeds/my_seed.csv', 'id,name\n1,Easton\n2,Lillian\n');
    p.write('seeds/schema.yml', `seeds:\n  - name: my_seed\n    config:\n      grants:\n        select: [${U1}]\n`);
    const first = ok(['seed', '--debug']);
    expect(p.count('my_seed')).toBe(2);
    if (engine === 'sqlite') {
      expect(first.stderr).toContain('the grants of my_seed are not applied');
      return;
    }
    expect(first.stdout + first.stderr).toContain(`grant select on "public"."my_seed" to ${U1}`);
    expect(grantsOn('my_seed')).toEqual({ select: [U1] });
    ok(['seed']);
    expect(grantsOn('my_seed')).toEqual({ select: [U1] });
    p.write('seeds/schema.yml', `seeds:\n  - name: my_seed\n    config:\n      grants:\n        select: [${U2}]\n`);
    ok(['seed']);
    expect(grantsOn('my_seed')).toEqual({ select: [U2] });
    ok(['seed', '--full-refresh']);
    expect(grantsOn('my_seed')).toEqual({ select: [U2] });
    p.write('seeds/schema.yml', 'seeds:\n  - name: my_seed\n    config:\n      grants: {}\n');
    const none = ok(['seed', '--debug']);
    expect(none.stdout + none.stderr).not.toMatch(/\b(grant|revoke) (select|SELECT)/);
    expect(grantsOn('my_seed')).toEqual({});
  });

  it('snapshots: granted on the first run, nothing issued when in place, revoked and granted when the config changes', () => {
    p.write('snapshots/my_snapshot.sql', "{% snapshot my_snapshot %}\n{{ config(check_cols='all', unique_key='id', strategy='check') }}\nselect 1 as id, 'blue' as color\n{% endsnapshot %}\n");
    p.write('snapshots/schema.yml', `snapshots:\n  - name: my_snapshot\n    config:\n      grants:\n        select: [${U1}]\n`);
    ok(['snapshot']);
    expect(p.count('my_snapshot')).toBe(1);
    if (engine === 'sqlite') return;
    expect(grantsOn('my_snapshot')).toEqual({ select: [U1] });
    const again = ok(['snapshot', '--debug']);
    expect(again.stdout + again.stderr).not.toMatch(/(grant|revoke) (select|SELECT) on/);
    expect(grantsOn('my_snapshot')).toEqual({ select: [U1] });
    p.write('snapshots/schema.yml', `snapshots:\n  - name: my_snapshot\n    config:\n      grants:\n        select: [${U2}]\n`);
    const changed = ok(['snapshot', '--debug']);
    expect(changed.stdout + changed.stderr).toContain(`revoke SELECT on "public"."my_snapshot" from ${U1}`);
    expect(grantsOn('my_snapshot')).toEqual({ select: [U2] });
  });

  it('a grants config that is not a dictionary of grantee lists stops the command (exit 2)', () => {
    const q = conformanceProject({ 'dbt_project.yml': project, 'models/m.sql': "{{ config(grants='select') }}\nselect 1 as fun\n" }, 'grants_invalid', { engine });
    const notDict = q.dbt(['run']);
    expect(notDict.code).toBe(2);
    expect(notDict.stderr).toContain("model 'm': at path ['grants']: 'select' is not of type 'object'");
    q.write('models/m.sql', "{{ config(grants={'select': 5}) }}\nselect 1 as fun\n");
    const notList = q.dbt(['run']);
    expect(notList.code).toBe(2);
    expect(notList.stderr).toContain("model 'm': at path ['grants']['select']: [5] is not valid under any of the given schemas");
    expect(existsSync(join(q.dir, 'target', 'run', 'grants', 'models', 'm.sql'))).toBe(false);
    q.write('models/m.sql', 'select 1 as fun\n');
    q.write('seeds/s.csv', 'id\n1\n');
    q.write('seeds/schema.yml', 'seeds:\n  - name: s\n    config:\n      grants: [select]\n');
    q.write('snapshots/snap.sql', "{% snapshot snap %}\n{{ config(unique_key='id', strategy='check', check_cols='all', grants={'select': {'to': 'x'}}) }}\nselect 1 as id\n{% endsnapshot %}\n");
    const others = q.dbt(['build']);
    expect(others.code).toBe(2);
    expect(others.stderr).toContain("seed 's': at path ['grants']: ['select'] is not of type 'object'");
    expect(others.stderr).toContain("snapshot 'snap': at path ['grants']['select']: [{'to': 'x'}] is not valid under any of the given schemas");
  });
});

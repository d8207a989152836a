import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, pgReader, withReader } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): snapshot configs and how snapshots sit in the project, modelled on
 * dbt-tests-adapter's simple_snapshot/ tests (test_various_configs.py: snapshot_meta_column_names,
 * dbt_valid_to_current; new_record_timestamp_mode.py: a snapshot configured from yml, ref() to it from a
 * model), and dbt 1.9's yml-defined snapshots (`relation:`).
 */

const SEED = 'id,name,updated_at\n1,ann,2024-01-01\n2,bob,2024-01-01\n';
const BLOCK = (config: string) =>
  `{% snapshot snap %}\n{{ config(unique_key='id', strategy='timestamp', updated_at='updated_at'${config}) }}\nselect * from {{ ref('seed') }}\n{% endsnapshot %}\n`;

describeEachEngine('snapshot configs', (engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  it('snapshot_meta_column_names renames the meta columns (dbt_is_deleted too, with new_record)', () => {
    const p = onEngine({
      'seeds/seed.csv': SEED,
      'snapshots/snap.sql': BLOCK(", hard_deletes='new_record', snapshot_meta_column_names={'dbt_valid_from': 'test_valid_from', 'dbt_valid_to': 'test_valid_to', 'dbt_scd_id': 'test_scd_id', 'dbt_updated_at': 'test_updated_at', 'dbt_is_deleted': 'test_is_deleted'}"),
    });
    p.dbt(['seed']);
    const out = p.dbt(['snapshot']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(p.columns('snap')).toEqual(['id', 'name', 'updated_at', 'test_scd_id', 'test_updated_at', 'test_valid_from', 'test_valid_to', 'test_is_deleted']);
    p.exec("update seed set name = 'bobby', updated_at = '2024-02-01' where id = 2");
    p.exec('delete from seed where id = 1');
    expect(p.dbt(['snapshot']).stdout).toContain('snap: new 0, changed 1, deleted 1, unchanged 0');
    expect(p.rows('snap', 'id, test_valid_from, test_is_deleted').map((r) => [r.id, r.name, r.test_valid_to === null, r.test_is_deleted])).toEqual([
      [1, 'ann', false, 'False'], [1, 'ann', true, 'True'], [2, 'bob', false, 'False'], [2, 'bobby', true, 'False'],
    ]);
  });

  it("dbt_valid_to_current: current rows carry that value instead of NULL, and are still found as current", () => {
    const p = onEngine({ 'seeds/seed.csv': SEED, 'snapshots/snap.sql': BLOCK(", dbt_valid_to_current=\"'9999-12-31'\"") });
    p.dbt(['seed']);
    p.dbt(['snapshot']);
    expect(p.rows('snap', 'id').map((r) => r.dbt_valid_to)).toEqual(['9999-12-31', '9999-12-31']);
    p.exec("update seed set updated_at = '2024-03-01' where id = 1");
    expect(p.dbt(['snapshot']).stdout).toContain('snap: new 0, changed 1, deleted 0, unchanged 1');
    expect(p.rows('snap', 'id, dbt_valid_from').map((r) => [r.id, r.dbt_valid_to])).toEqual([[1, '2024-03-01'], [1, '9999-12-31'], [2, '9999-12-31']]);
    p.dbt(['snapshot']);
    expect(p.count('snap')).toBe(3);
  });

  it('yml: a block configured from a property file; dbt 1.9 snapshots defined by relation (ref and source)', () => {
    const p = onEngine({
      'seeds/seed.csv': SEED,
      'snapshots/snap.sql': '{% snapshot snap %}\nselect * from {{ ref(\'seed\') }}\n{% endsnapshot %}\n',
      'models/snapshots.yml': 'snapshots:\n  - name: snap\n    config:\n      unique_key: id\n      strategy: timestamp\n      updated_at: updated_at\n',
      'models/sources.yml': 'sources:\n  - name: raw\n    schema: "{{ target.schema }}"\n    tables: [{name: seed}]\n',
      'snapshots/more.yml': `snapshots:
  - name: by_ref
    relation: ref('seed')
    config: {unique_key: id, strategy: check, check_cols: [name]}
  - name: by_source
    relation: source('raw', 'seed')
    config: {unique_key: id, strategy: timestamp, updated_at: updated_at}
`,
    });
    p.dbt(['seed']);
    const out = p.dbt(['snapshot']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(['snap', 'by_ref', 'by_source'].map((s) => p.count(s))).toEqual([2, 2, 2]);
    const ls = p.dbt(['ls', '--resource-type', 'snapshot', '--output', 'json']);
    expect(ls.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { unique_id: string; depends_on: { nodes: string[] } }))
      .map((n) => [n.unique_id, n.depends_on.nodes])).toEqual([
      ['snapshot.conformance.by_ref', ['seed.conformance.seed']],
      ['snapshot.conformance.by_source', ['source.conformance.raw.seed']],
      ['snapshot.conformance.snap', ['seed.conformance.seed']],
    ]);
  });

  it("ref() to a snapshot from a model: build runs seed, snapshot, model in DAG order; resource_type:snapshot selects it", () => {
    const p = onEngine({
      'seeds/seed.csv': SEED,
      'snapshots/snap.sql': BLOCK(''),
      'models/current_people.sql': "{{ config(materialized='table') }}\nselect id, name from {{ ref('snap') }} where dbt_valid_to is null\n",
    });
    const build = p.dbt(['build']);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.results.map((r) => r.unique_id)).toEqual(['seed.conformance.seed', 'snapshot.conformance.snap', 'model.conformance.current_people']);
    expect(p.rows('current_people', 'id')).toEqual([{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]);
    const manifest = JSON.parse(readFileSync(join(p.dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, { resource_type: string; depends_on: { nodes: string[] } }>; child_map: Record<string, string[]> };
    expect(manifest.nodes['snapshot.conformance.snap']).toMatchObject({ resource_type: 'snapshot', depends_on: { nodes: ['seed.conformance.seed'] } });
    expect(manifest.child_map['snapshot.conformance.snap']).toEqual(['model.conformance.current_people']);
    expect(p.dbt(['ls', '-s', 'resource_type:snapshot']).stdout.trim()).toBe('conformance.snap');
    expect(p.dbt(['ls', '-s', 'snap+']).stdout.trim().split('\n')).toEqual(['conformance.snap', 'conformance.current_people']);
    const only = p.dbt(['snapshot', '-s', 'current_people']);
    expect(only.code).toBe(0);
    expect(only.stdout + only.stderr).toContain('leaves no snapshot to snapshot');
  });

  it.runIf(engine === 'postgres')('target_schema on PostgreSQL: the snapshot is built in that schema (created when missing)', () => {
    const p = onEngine({ 'seeds/seed.csv': SEED, 'snapshots/snap.sql': BLOCK(", target_schema='snapshots'") });
    const out = p.dbt(['build']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain('snapshots.snap');
    expect(withReader(() => pgReader(p.pg!), (db) => db.all('select count(*) as n from snapshots.snap')[0]!.n)).toBe(2);
    expect(p.relationType('snap')).toBeUndefined();
  });

  it.runIf(engine === 'sqlite')('target_schema: with a profile, the snapshot is built in that schema; without one, in main', () => {
    const profile = `default:\n  target: dev\n  outputs:\n    dev:\n      type: sqlite\n      database: database\n      schema: main\n      schemas_and_paths:\n        main: dev.db\n      schema_directory: schemas\n`;
    const p = onEngine({ 'profiles.yml': profile, 'seeds/seed.csv': SEED, 'snapshots/snap.sql': BLOCK(", target_schema='snapshots'") });
    const out = p.dbt(['build']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain('snapshots.snap');
    const db = new Database(join(p.dir, 'schemas', 'snapshots.db'));
    try {
      expect((db.prepare('select count(*) as n from snap').get() as { n: number }).n).toBe(2);
    } finally {
      db.close();
    }
    const plain = onEngine({ 'seeds/seed.csv': SEED, 'snapshots/snap.sql': BLOCK(", target_schema='snapshots'") });
    expect(plain.dbt(['build']).code).toBe(0);
    expect(plain.count('snap')).toBe(2);
  });
});

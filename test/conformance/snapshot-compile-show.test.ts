import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { compileProject } from '../../src/api/compile.js';
import { generateDocs } from '../../src/api/docs.js';
import { show } from '../../src/api/show.js';
import { collectUserWarnings } from '../../src/errors/user-warning.js';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): snapshots in compile, show and catalog.json, modelled on dbt-core's
 * tests/functional/compile/test_compile.py (compile --select writes target/compiled/<project>/<file> and
 * prints the node), tests/functional/show/test_show.py (show runs the node's compiled code: for a snapshot
 * that is its query, which dbt's ShowRunner executes, not the snapshot table) and dbt-tests-adapter's
 * basic/test_docs_generate.py (catalog.json lists every built relation with its columns, a snapshot's meta
 * columns included). The snapshot follows simple_snapshot's timestamp fixture.
 */

const SEED = 'id,name,updated_at\n1,ann,2024-01-01\n2,bob,2024-01-01\n';
const SNAP = "{% snapshot snap %}\n{{ config(unique_key='id', strategy='timestamp', updated_at='updated_at') }}\nselect * from {{ ref('seed') }}\n{% endsnapshot %}\n";
// Two blocks in a file named after neither: dbt's many-to-one path, <file>/<name>.sql.
const MANY = "{% snapshot snap_a %}\n{{ config(unique_key='id', strategy='check', check_cols='all') }}\nselect id, name from {{ ref('seed') }}\n{% endsnapshot %}\n"
  + "{% snapshot snap_b %}\n{{ config(unique_key='id', strategy='check', check_cols=['name']) }}\nselect id, name from {{ ref('seed') }} where id = 1\n{% endsnapshot %}\n";

describeEachEngine('snapshots in compile, show and catalog.json', (engine) => {
  let p: ConformanceProject;
  beforeAll(() => {
    p = conformanceProject({ 'seeds/seed.csv': SEED, 'snapshots/snap.sql': SNAP, 'snapshots/many.sql': MANY, 'models/downstream.sql': "select * from {{ ref('snap') }}\n" }, 'conformance', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
  });

  // The target schema: SQLite's main, the fresh database's public on PostgreSQL.
  const schema = engine === 'sqlite' ? 'main' : 'public';
  // The snapshot table as the tool writes it: bare in SQLite's main, schema-qualified on PostgreSQL.
  const table = engine === 'sqlite' ? '"snap"' : '"public"."snap"';
  const compiledFile = (...parts: string[]) => join(p.dir, 'target/compiled/conformance', ...parts);
  it('compile --select a snapshot renders its query to target/compiled/<project>/<file> and plans its first run', () => {
    const { models, snapshots } = compileProject({ projectDir: p.dir, select: ['snap'] });
    expect(models).toEqual([]);
    expect(snapshots.map((s) => s.node.name)).toEqual(['snap']);
    const [snap] = snapshots;
    expect(snap!.sql).toBe(`select * from "${schema}"."seed"`);
    expect(readFileSync(compiledFile('snapshots/snap.sql'), 'utf8')).toBe(`select * from "${schema}"."seed"\n`);
    expect(snap!.mode).toBe('first run');
    expect(snap!.statements).toHaveLength(1);
    expect(snap!.statements[0]).toMatch(new RegExp(`^create table ${table.replace(/\./g, '\\.')} as\nselect \\*,\n {2}md5\\(`));
    expect(snap!.statements[0]).toContain('as "dbt_scd_id"');
    // Nothing ran: compile is read-only.
    expect(p.relationType('snap')).toBeUndefined();
  });

  it('several blocks in one file compile to <file>/<name>.sql; selection by graph reaches snapshots and the models after them', () => {
    const { models, snapshots } = compileProject({ projectDir: p.dir, select: ['seed+'] });
    expect(snapshots.map((s) => s.node.name).sort()).toEqual(['snap', 'snap_a', 'snap_b']);
    expect(models.map((m) => m.node.name)).toEqual(['downstream']);
    expect(readFileSync(compiledFile('snapshots/many.sql/snap_a.sql'), 'utf8')).toBe(`select id, name from "${schema}"."seed"\n`);
    expect(readFileSync(compiledFile('snapshots/many.sql/snap_b.sql'), 'utf8')).toBe(`select id, name from "${schema}"."seed" where id = 1\n`);
    expect(existsSync(compiledFile('models/downstream.sql'))).toBe(true);
  });

  it('after a snapshot run, compile plans the merge: staging, closing changed versions, inserting new ones; the CLI prints it', () => {
    expect(p.dbt(['snapshot', '-s', 'snap']).code).toBe(0);
    const [snap] = compileProject({ projectDir: p.dir, select: ['snap'] }).snapshots;
    expect(snap!.mode).toBe('merge');
    expect(snap!.statements.some((s) => s.startsWith(`update ${table} set "dbt_valid_to"`))).toBe(true);
    expect(snap!.statements.some((s) => s.startsWith(`insert into ${table} ("id", "name", "updated_at", "dbt_scd_id", "dbt_updated_at", "dbt_valid_from", "dbt_valid_to")`))).toBe(true);
    const cli = p.dbt(['compile', '--select', 'snap']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain(`-- snap (snapshots/snap.sql): snapshot, timestamp strategy\nselect * from "${schema}"."seed"\n`);
    expect(cli.stdout).toContain('-- a snapshot run now would: merge (');
    // Compile changed nothing: the snapshot still holds its first run's rows.
    expect(p.count('snap')).toBe(2);
  });

  it('show --select a snapshot previews its query, as dbt\'s show does, with a one-line warning (E139); its table through ref()', () => {
    p.exec("update seed set name = 'bobby', updated_at = '2024-02-01' where id = 2");
    const warnings: string[] = [];
    const restore = collectUserWarnings((w) => warnings.push(w));
    let previews: ReturnType<typeof show>;
    try {
      previews = show({ projectDir: p.dir, select: ['snap'] });
    } finally {
      restore();
    }
    expect(previews[0]).toEqual({ node: 'snap', columns: ['id', 'name', 'updated_at'], rows: [[1, 'ann', '2024-01-01'], [2, 'bobby', '2024-02-01']] });
    expect(warnings).toEqual([`show previews the query of snapshot 'snap' (the rows its next run reads), as dbt's show does, not the snapshot table; to see its rows and their history: mini-dbt show --inline "select * from {{ ref('snap') }}"`]);
    const [table] = show({ projectDir: p.dir, inline: "select id, name, dbt_valid_to from {{ ref('snap') }} order by id" });
    expect(table!.rows).toEqual([[1, 'ann', null], [2, 'bob', null]]);
  });

  it('catalog.json lists the snapshot table with its columns, dbt\'s meta columns after the query\'s', async () => {
    await generateDocs({ projectDir: p.dir, compile: false });
    const catalog = JSON.parse(readFileSync(join(p.dir, 'target/catalog.json'), 'utf8')) as { nodes: Record<string, { metadata: { type: string; name: string }; columns: Record<string, { index: number }> }> };
    const snap = catalog.nodes['snapshot.conformance.snap'];
    expect(snap?.metadata).toMatchObject({ type: 'table', name: 'snap' });
    expect(Object.entries(snap!.columns).map(([name, c]) => [name, c.index])).toEqual([
      ['id', 1], ['name', 2], ['updated_at', 3], ['dbt_scd_id', 4], ['dbt_updated_at', 5], ['dbt_valid_from', 6], ['dbt_valid_to', 7],
    ]);
    // Snapshots not run yet are absent, as any relation not built.
    expect(catalog.nodes['snapshot.conformance.snap_a']).toBeUndefined();
  });
});

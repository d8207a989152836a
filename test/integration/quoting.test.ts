import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession, run } from '../../src/index.js';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/**
 * Names with spaces, quotes and SQL keywords, for models, seeds, columns and
 * sources: every statement the tool writes itself quotes identifiers.
 */
const FILES = {
  'project.yml': 'name: odd\n',
  'seeds/order lines.csv': 'id,"group",it\'s,"a ""b""",day\n1,x,1.5,p,2026-09-01\n2,y,2.5,q,2026-09-01\n3,x,4,r,2026-09-02\n',
  'seeds/props.yml': [
    'seeds:',
    "  - name: order lines",
    '    config:',
    '      event_time: day',
    '      loaded_at: day',
    '      indexes:',
    '        - columns: [day, "group"]',
    'sources:',
    '  - name: raw data',
    '    tables:',
    '      - name: the lines',
    '        identifier: order lines',
  ].join('\n'),
  'models/select.sql': `{{ config(materialized='table') }}
select "group", sum("it's") as "sum of it's", count(*) as "order" from {{ ref('order lines') }} group by "group"`,
  'models/by day "daily".sql': `{{ config(materialized='incremental', unique_key=['day', 'group'], partition_by='day') }}
select day, "group", sum("it's") as total from {{ source('raw data', 'the lines') }}
{% if is_incremental() %}where day >= '2026-09-02'{% endif %}
group by day, "group"`,
  'models/view of select.sql': `select * from {{ ref('select') }} where "order" > 0`,
};

describe('identifiers with spaces, quotes and keywords', () => {
  it('seeds, builds incrementally, swaps tables under views and lists them', async () => {
    const dir = writeProject(FILES);
    const session = loadSession({ projectDir: dir });
    const seeded = await run({ session, command: 'seed', writeArtifacts: false });
    expect(seeded.results.map((r) => r.status)).toEqual(['success']);
    for (let i = 0; i < 2; i++) {
      const built = await run({ session, writeArtifacts: false });
      expect(built.results.map((r) => [r.name, r.status, r.message])).toEqual([
        ['by day "daily"', 'success', i === 0 ? 'SELECT 3' : 'DELETE 1, INSERT 1'],
        ['select', 'success', 'SELECT 2'],
        ['view of select', 'success', 'CREATE VIEW'],
      ]);
    }
    const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
    expect(db.prepare('select * from "view of select" order by 1').all()).toEqual([
      { group: 'x', "sum of it's": 5.5, order: 2 },
      { group: 'y', "sum of it's": 2.5, order: 1 },
    ]);
    expect(db.prepare('select * from "by day ""daily""" order by 1, 2').all()).toEqual([
      { day: '2026-09-01', group: 'x', total: 1.5 },
      { day: '2026-09-01', group: 'y', total: 2.5 },
      { day: '2026-09-02', group: 'x', total: 4 },
    ]);
    expect((db.prepare("select name from pragma_index_list('order lines')").all() as { name: string }[]).map((r) => r.name)).toContain('order lines__idx__day__group');
    db.close();
    const ls = runCli(['ls', '--project-dir', dir, '-s', '+view of select', '--output', 'name']);
    expect(ls.stdout.trim().split('\n')).toEqual(['order lines', 'select', 'view of select']);
  });

  it('binds the tool\'s own values: a date carrying SQL is refused and nothing is dropped', () => {
    const dir = writeProject(FILES);
    expect(runCli(['build', '--project-dir', dir]).code).toBe(0);
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    for (const args of [
      ['backfill', 'by day "daily"', '--start', "2026-09-01'; DROP TABLE \"order lines\"; --", '--end', '2026-09-02', '--reason', 'x'],
      ['history', 'by day "daily"', '--partition', "2026-09-01' OR '1'='1"],
      ['stale', 'by day "daily"', '--vars', "{as_of: \"2026-09-02'; DROP TABLE select; --\"}"],
    ]) {
      const r = runCli([...args, '--project-dir', dir]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/must be a (real )?date/);
    }
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { forEachEngine, type EngineName } from '../support/engine-under-test.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 15): `source freshness`, modelled on dbt-core's
 * tests/functional/sources/test_source_freshness.py (fixtures.py): a seed
 * stands in for the loaded table, rows are inserted hours before now, and
 * each run's status and sources.json are checked. "now" is the clock, or the
 * `as_of` var (a bare date: the end of that night; only rows landed by then count).
 */

// dbt's schema: the source's freshness, the table's error_after winning key by key.
const SOURCES = `sources:
  - name: test_source
    schema: "{{ target.schema }}"
    loader: custom
    freshness:
      warn_after: {count: 10, period: hour}
      error_after: {count: 1, period: day}
    tables:
      - name: test_table
        identifier: source
        loaded_at_field: updated_at
        freshness:
          error_after: {count: 18, period: hour}
      - name: other_test_table
        identifier: source
        freshness: null
`;

const SEED = 'id,updated_at\n1,2008-09-12 19:08:31\n2,2016-09-19 14:45:51\n3,1978-05-09 04:15:14\n';

const pad = (n: number) => String(n).padStart(2, '0');
const sqlTime = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** dbt's _set_updated_at_to: a row loaded `hours` before now, with the next id from 101 on. */
function insertHoursAgo(p: ConformanceProject, hours: number): string {
  const at = new Date(Math.floor(Date.now() / 1000) * 1000 - hours * 3600_000);
  p.exec(`insert into source (id, updated_at) select case when max(id) + 1 > 101 then max(id) + 1 else 101 end, '${sqlTime(at)}' from source`);
  return at.toISOString().replace('.000Z', '+00:00');
}

interface SourcesJson {
  metadata: Record<string, unknown>;
  results: Record<string, unknown>[];
  elapsed_time: number;
}
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as SourcesJson;

/** The project with its seed loaded (in process: no case checks the seed's output). */
async function seeded(engine: EngineName, files: Record<string, string> = {}): Promise<ConformanceProject> {
  const p = conformanceProject({ 'models/schema.yml': SOURCES, 'seeds/source.csv': SEED, 'models/descendant_model.sql': "select * from {{ source('test_source', 'test_table') }}\n", ...files }, 'conformance', { engine });
  await succeedingRun(p.dir, { command: 'seed' });
  return p;
}

forEachEngine((engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  describe('source freshness (dbt-core tests/functional/sources/test_source_freshness.py)', () => {
    it('TestSourceFreshness: error, then warn, then pass as rows land; sources.json in dbt\'s shape at -o', async () => {
      const p = await seeded(engine);
      const errorPath = join(p.dir, 'target/error_source.json');
      const error = p.dbt(['source', 'freshness', '-o', errorPath]);
      expect(error.code, error.stdout + error.stderr).toBe(1);
      expect(error.stdout).toContain('1 of 1 START freshness of test_source.test_table');
      expect(error.stdout).toContain('1 of 1 ERROR STALE freshness of test_source.test_table');
      const errorJson = read(errorPath);
      expect(Object.keys(errorJson).sort()).toEqual(['elapsed_time', 'metadata', 'results']);
      expect(errorJson.metadata.dbt_schema_version).toBe('https://schemas.getdbt.com/dbt/sources/v3.json');
      expect(errorJson.results).toHaveLength(1);
      expect(errorJson.results[0]).toMatchObject({
        unique_id: 'source.conformance.test_source.test_table',
        max_loaded_at: '2016-09-19T14:45:51+00:00',
        status: 'error',
        criteria: { filter: null, warn_after: { count: 10, period: 'hour' }, error_after: { count: 18, period: 'hour' } },
        thread_id: 'Thread-1',
      });
      expect(typeof errorJson.results[0]!.max_loaded_at_time_ago_in_s).toBe('number');
      expect(errorJson.results[0]!.timing).toHaveLength(2);

      const warnAt = insertHoursAgo(p, 12);
      const warn = p.dbt(['source', 'freshness', '-o', join(p.dir, 'target/warn_source.json')]);
      expect(warn.code, warn.stdout + warn.stderr).toBe(0);
      expect(warn.stdout).toContain('1 of 1 WARN freshness of test_source.test_table');
      const warnResult = read(join(p.dir, 'target/warn_source.json')).results[0]!;
      expect(warnResult).toMatchObject({ status: 'warn', max_loaded_at: warnAt });
      expect(warnResult.max_loaded_at_time_ago_in_s as number).toBeGreaterThanOrEqual(12 * 3600);
      expect(warnResult.max_loaded_at_time_ago_in_s as number).toBeLessThan(12 * 3600 + 60);

      insertHoursAgo(p, 2);
      const pass = p.dbt(['source', 'freshness', '-o', join(p.dir, 'target/pass_source.json')]);
      expect(pass.code).toBe(0);
      expect(pass.stdout).toContain('1 of 1 PASS freshness of test_source.test_table');
      expect(read(join(p.dir, 'target/pass_source.json')).results[0]!.status).toBe('pass');
    });

    it('snapshot-freshness is the older name; selection by source:, by graph (+descendant_model) and --exclude', async () => {
      const p = await seeded(engine);
      insertHoursAgo(p, 2);
      expect(p.dbt(['source', 'snapshot-freshness']).code).toBe(0);
      expect(p.dbt(['source', 'freshness', '--threads', '4']).code).toBe(0);
      const selected = p.dbt(['source', 'freshness', '--select', 'source:test_source.test_table']);
      expect(selected.code).toBe(0);
      expect(read(join(p.dir, 'target/sources.json')).results.map((r) => [r.unique_id, r.status])).toEqual([['source.conformance.test_source.test_table', 'pass']]);
      expect(p.dbt(['source', 'freshness', '-s', '+descendant_model']).code).toBe(0);
      expect(read(join(p.dir, 'target/sources.json')).results).toHaveLength(1);
      const excluded = p.dbt(['source', 'freshness', '--exclude', 'source:test_source.test_table']);
      expect(excluded.code).toBe(0);
      expect(read(join(p.dir, 'target/sources.json')).results).toEqual([]);
    });

    it('TestSourceFreshnessFilter: the filter decides which rows count; none matching is a runtime error', async () => {
      const filtered = SOURCES.replace('error_after: {count: 18, period: hour}', 'error_after: {count: 18, period: hour}\n          filter: id > 101');
      const p = await seeded(engine, { 'models/schema.yml': filtered });
      const none = p.dbt(['source', 'freshness']);
      expect(none.code).toBe(1);
      expect(read(join(p.dir, 'target/sources.json')).results[0]).toMatchObject({ status: 'runtime error' });
      insertHoursAgo(p, 2); // id 101: fresh, but filtered out
      expect(p.dbt(['source', 'freshness']).code).toBe(1);
      insertHoursAgo(p, 2); // id 102: fresh and counted
      const ok = p.dbt(['source', 'freshness']);
      expect(ok.code, ok.stdout).toBe(0);
      expect(read(join(p.dir, 'target/sources.json')).results[0]).toMatchObject({ status: 'pass', criteria: { filter: 'id > 101' } });
    });

    it('TestOverrideSourceFreshness: config over top-level, table over source, key by key; null turns a check off', async () => {
      const override = `sources:
  - name: test_source
    schema: "{{ target.schema }}"
    freshness:
      warn_after: {count: 18, period: hour}
      error_after: {count: 24, period: hour}
    config:
      freshness:
        warn_after: {count: 12, period: hour}
    loaded_at_field: updated_at
    tables:
      - name: source_a
        identifier: source
        config:
          freshness:
            warn_after: {count: 6, period: hour}
        freshness:
          warn_after: {count: 9, period: hour}
      - name: source_b
        identifier: source
        freshness:
          warn_after: {count: 6, period: hour}
          error_after: {}
      - name: source_c
        identifier: source
        freshness:
          warn_after: {count: 6, period: hour}
          error_after: null
      - name: source_d
        identifier: source
        freshness:
          warn_after: {count: 6, period: hour}
          error_after: {count: 144, period: hour}
        config:
          freshness:
            error_after: {count: 72, period: hour}
      - name: source_e
        identifier: source
        freshness: null
`;
      const p = await seeded(engine, { 'models/schema.yml': override, 'models/descendant_model.sql': 'select 1 as id\n' });
      insertHoursAgo(p, 30);
      const r = p.dbt(['source', 'freshness']);
      expect(r.code).toBe(1);
      const byId = Object.fromEntries(read(join(p.dir, 'target/sources.json')).results.map((x) => [String(x.unique_id).split('.').pop(), x]));
      expect(Object.keys(byId).sort()).toEqual(['source_a', 'source_b', 'source_c', 'source_d']);
      const criteria = (w: number, e: number | null) => ({ warn_after: { count: w, period: 'hour' }, error_after: e === null ? null : { count: e, period: 'hour' }, filter: null });
      expect(byId.source_a).toMatchObject({ status: 'error', criteria: criteria(6, 24) });
      expect(byId.source_b).toMatchObject({ status: 'error', criteria: criteria(6, 24) });
      expect(byId.source_c).toMatchObject({ status: 'warn', criteria: criteria(6, null) });
      expect(byId.source_d).toMatchObject({ status: 'warn', criteria: criteria(6, 72) });
      // manifest.json gives each source its merged freshness and loaded_at_field, as dbt's does.
      await succeedingRun(p.dir, { command: 'seed', writeArtifacts: true });
      const manifest = JSON.parse(readFileSync(join(p.dir, 'target/manifest.json'), 'utf8')) as { sources: Record<string, { freshness: unknown; loaded_at_field: unknown }> };
      expect(manifest.sources['source.conformance.test_source.source_c']).toMatchObject({ loaded_at_field: 'updated_at', freshness: { warn_after: { count: 6, period: 'hour' }, error_after: { count: null, period: null }, filter: null } });
      expect(manifest.sources['source.conformance.test_source.source_e']!.freshness).toBeNull();
    });

    it('TestSourceFreshnessErrors and explicit nulls: a missing relation is a runtime error; freshness: null on the source checks nothing', async () => {
      const p = await seeded(engine, { 'models/schema.yml': SOURCES.replace('identifier: source\n        loaded_at_field', 'identifier: no_such_table\n        loaded_at_field') });
      const r = p.dbt(['source', 'freshness']);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('1 of 1 ERROR freshness of test_source.test_table');
      expect(read(join(p.dir, 'target/sources.json')).results[0]).toMatchObject({ unique_id: 'source.conformance.test_source.test_table', status: 'runtime error' });
      expect(r.stdout).toContain('"no_such_table" does not exist');

      const off = await seeded(engine, { 'models/schema.yml': 'sources:\n  - name: test_source\n    schema: "{{ target.schema }}"\n    freshness: null\n    loaded_at_field: updated_at\n    tables:\n      - name: test_table\n        identifier: source\n' });
      const none = off.dbt(['source', 'freshness']);
      expect(none.code).toBe(0);
      expect(read(join(off.dir, 'target/sources.json')).results).toEqual([]);
    });

    it('as_of is "now": only rows landed by that night count, and the age is measured from its end', async () => {
      const p = await seeded(engine);
      p.exec("insert into source (id, updated_at) values (201, '2026-09-01 06:00:00'), (202, '2026-09-02 20:00:00'), (203, '2026-09-03 01:00:00')");
      // The night of 2026-09-02 ends at 2026-09-03 00:00: the newest row landed 4 hours before; the 09-03 row has not landed yet.
      const pass = p.dbt(['source', 'freshness', '--vars', '{as_of: 2026-09-02}']);
      expect(pass.code, pass.stdout + pass.stderr).toBe(0);
      expect(read(join(p.dir, 'target/sources.json')).results[0]).toMatchObject({
        status: 'pass', max_loaded_at: '2026-09-02T20:00:00+00:00', snapshotted_at: '2026-09-03T00:00:00+00:00', max_loaded_at_time_ago_in_s: 4 * 3600,
      });
      // Three nights later nothing new landed by then (the 09-03 01:00 row is 71 hours old): past error_after (18 hours).
      const stale = p.dbt(['source', 'freshness', '--vars', '{as_of: 2026-09-05}']);
      expect(stale.code).toBe(1);
      expect(read(join(p.dir, 'target/sources.json')).results[0]).toMatchObject({ status: 'error', max_loaded_at: '2026-09-03T01:00:00+00:00', max_loaded_at_time_ago_in_s: 71 * 3600 });
      // An as_of time (not a bare date) is "now" itself: at 2026-09-01 20:00 the newest row is 14 hours old (a warning).
      expect(p.dbt(['source', 'freshness', '--vars', "{as_of: '2026-09-01 20:00:00'}"]).code).toBe(0);
      expect(read(join(p.dir, 'target/sources.json')).results[0]).toMatchObject({ max_loaded_at: '2026-09-01T06:00:00+00:00', max_loaded_at_time_ago_in_s: 14 * 3600, status: 'warn' });
    });

    it('a bad period or count is refused at load with the yml line (exit 2)', async () => {
      const p = await seeded(engine);
      p.write('models/schema.yml', SOURCES.replace('error_after: {count: 18, period: hour}', 'error_after: {count: 18, period: week}'));
      const r = p.dbt(['source', 'freshness']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("models/schema.yml:13: 'freshness.error_after.period' must be one of minute, hour, day, got \"week\"");
    });
  });
});

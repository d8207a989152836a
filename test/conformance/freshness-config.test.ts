import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSession } from '../../src/api/session.js';
import { sourceFreshness, type FreshnessResult } from '../../src/api/source-freshness.js';
import { isProjectError } from '../../src/errors/project-error.js';
import { collectUserWarnings } from '../../src/errors/user-warning.js';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { forEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): where a source table's freshness settings come from, modelled on
 * dbt-core's tests/functional/sources/test_source_freshness.py (TestOverrideSourceFreshness with the
 * project file's `sources: +freshness`, TestSourceFreshnessCustomSQL / CustomSQLConfig /
 * CustomSQLSourceConfig for loaded_at_query, TestSourceFreshnessExplicitNullInTable / InSource,
 * TestHooksInSourceFreshness / Disabled / Default / Error), test_source_configs.py (loaded_at_field and
 * loaded_at_query at the top level and under config, TestTableLoadedAtQueryNoneWhenFieldSet*) and
 * test_source_loaded_at_field.py (a table's `loaded_at_field: null` overriding the source's, '' refused).
 * The loaded table is created directly (dbt's fixtures seed it); rows land 30 or 12 hours before now.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const hoursAgo = (hours: number) => {
  const d = new Date(Date.now() - hours * 3600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

function loaded(engine: EngineName, files: Record<string, string>, hours: number): ConformanceProject {
  const p = conformanceProject(files, 'conformance', { engine });
  p.exec(`create table source (id integer, updated_at text); insert into source values (1, '${hoursAgo(hours)}')`);
  return p;
}

const run = (p: ConformanceProject, select?: string[]) => sourceFreshness({ projectDir: p.dir, ...(select ? { select } : {}) });
const byName = (results: readonly FreshnessResult[]) => Object.fromEntries(results.map((r) => [r.name, r]));
const criteria = (warn: number | null, error: number | null) => ({
  warnAfter: warn === null ? null : { count: warn, period: 'hour' },
  errorAfter: error === null ? null : { count: error, period: 'hour' },
  filter: null,
});

forEachEngine((engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  describe('freshness from the project file (TestOverrideSourceFreshness, dbt_project.yml sources: +freshness)', () => {
    // dbt's override fixture, plus tables that set no freshness of their own and a property file in a folder.
    const PROJECT = `name: conformance
version: '1.0'
profile: default
sources:
  +freshness:
    error_after: {count: 24, period: hour}
  conformance:
    staging:
      staged:
        +freshness:
          warn_after: {count: 1, period: hour}
        late_table:
          +freshness:
            error_after: {count: 48, period: hour}
`;
    const SCHEMA = `sources:
  - name: test_source
    freshness:
      warn_after: {count: 18, period: hour}
      error_after: {count: 24, period: hour}
    config:
      freshness:
        warn_after: {count: 12, period: hour}
    schema: "{{ target.schema }}"
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
  - name: plain
    schema: "{{ target.schema }}"
    loaded_at_field: updated_at
    tables:
      - name: from_project
        identifier: source
      - name: table_null
        identifier: source
        config:
          freshness: null
`;
    const STAGED = `sources:
  - name: staged
    schema: "{{ target.schema }}"
    loaded_at_field: updated_at
    tables:
      - name: t1
        identifier: source
      - name: late_table
        identifier: source
`;
    let results: Record<string, FreshnessResult>;
    let exitCode: number;
    beforeAll(() => {
      const p = loaded(engine, { 'dbt_project.yml': PROJECT, 'models/schema.yml': SCHEMA, 'models/staging/staged.yml': STAGED }, 30);
      const out = run(p);
      results = byName(out.results);
      exitCode = out.exitCode;
    });

    it('the yml\'s freshness, merged key by key, wins whole over the project\'s (dbt\'s four results)', () => {
      expect(results['test_source.source_a']).toMatchObject({ status: 'error', criteria: criteria(6, 24) });
      expect(results['test_source.source_b']).toMatchObject({ status: 'error', criteria: criteria(6, 24) });
      expect(results['test_source.source_c']).toMatchObject({ status: 'warn', criteria: criteria(6, null) });
      expect(results['test_source.source_d']).toMatchObject({ status: 'warn', criteria: criteria(6, 72) });
      expect(exitCode).toBe(1);
    });

    it('a table whose yml sets no freshness takes the project\'s; null in the yml (top level or config) turns it off', () => {
      expect(results['plain.from_project']).toMatchObject({ status: 'error', criteria: criteria(null, 24) });
      expect(Object.keys(results).sort()).toEqual([
        'plain.from_project', 'staged.late_table', 'staged.t1',
        'test_source.source_a', 'test_source.source_b', 'test_source.source_c', 'test_source.source_d',
      ]);
    });

    it('the project tree is walked along the fqn (folders of the property file, source, table), the deepest +freshness replacing the rest', () => {
      expect(results['staged.t1']).toMatchObject({ status: 'warn', criteria: criteria(1, null) });
      expect(results['staged.late_table']).toMatchObject({ status: 'pass', criteria: criteria(null, 48) });
    });
  });

  describe('loaded_at_query (TestSourceFreshnessCustomSQL, CustomSQLConfig, CustomSQLSourceConfig)', () => {
    const schema = (a: string, b: string, c: string) => `sources:
  - name: test_source
    freshness:
      warn_after: {count: 10, period: hour}
    schema: "{{ target.schema }}"
    tables:
      - name: source_a
        identifier: source
        loaded_at_field: updated_at
      - name: source_b
        identifier: source
${b}
      - name: source_c
        identifier: source
${c}
${a}`;
    const TOP = schema('', '        loaded_at_query: "select max(updated_at) from {{ this }}"', "        loaded_at_query: \"select {{ dbt.current_timestamp_in_utc_backcompat() }}\"");
    const CONFIG = schema('', '        config:\n          loaded_at_query: "select max(updated_at) from {{ this }}"', "        config:\n          loaded_at_query: \"select {{ dbt.current_timestamp_in_utc_backcompat() }}\"");

    it('the same table, three ways: the field and a query over {{ this }} see the 12-hour-old row, a query of now passes', () => {
      for (const yml of [TOP, CONFIG]) {
        const p = loaded(engine, { 'models/schema.yml': yml }, 12);
        const out = byName(run(p).results);
        expect(Object.fromEntries(Object.entries(out).map(([k, r]) => [k.split('.')[1], r.status]))).toEqual({ source_a: 'warn', source_b: 'warn', source_c: 'pass' });
        expect(out['test_source.source_b']!.probe).toBe('loaded_at_query');
        const json = JSON.parse(readFileSync(join(p.dir, 'target/sources.json'), 'utf8')) as { results: { unique_id: string; status: string }[] };
        expect(json.results.map((r) => r.status)).toEqual(['warn', 'warn', 'pass']);
      }
    });

    it('a source-level loaded_at_query applies to its tables (CustomSQLSourceConfig); a table\'s query beats a field it inherits', () => {
      const p = loaded(engine, {
        'models/schema.yml': `sources:
  - name: test_source
    config:
      freshness:
        warn_after: {count: 10, period: hour}
      loaded_at_query: "select {{ dbt.current_timestamp_in_utc_backcompat() }}"
    schema: "{{ target.schema }}"
    tables:
      - name: source_c
        identifier: source
  - name: field_source
    schema: "{{ target.schema }}"
    loaded_at_field: updated_at
    freshness:
      warn_after: {count: 10, period: hour}
    tables:
      - name: queried
        identifier: source
        loaded_at_query: "select {{ dbt.current_timestamp_in_utc_backcompat() }}"
      - name: filtered
        identifier: source
        loaded_at_query: "select max(updated_at) from {{ this }}"
        freshness:
          filter: id > 100
`,
      }, 12);
      const out = byName(run(p).results);
      expect(out['test_source.source_c']).toMatchObject({ status: 'pass', probe: 'loaded_at_query' });
      expect(out['field_source.queried']).toMatchObject({ status: 'pass', loadedAtField: 'updated_at', probe: 'loaded_at_query' });
      // The filter is the loaded_at_field query's: dbt's collect_freshness_custom_sql does not apply it.
      expect(out['field_source.filtered']).toMatchObject({ status: 'warn' });
    });
  });

  describe('loaded_at_field and loaded_at_query precedence at parse (test_source_configs.py, test_source_loaded_at_field.py)', () => {
    const settings = (yml: string, files: Record<string, string> = {}) => {
      const p = onEngine({ 'models/schema.yml': yml, ...files });
      return Object.fromEntries([...loadSession({ projectDir: p.dir }).manifest.sources.values()].map((s) => [s.name, { field: s.settings.loadedAtField ?? null, query: s.settings.loadedAtQuery ?? null }]));
    };

    it('top level or config, source or table; a table naming loaded_at_field (even null) takes no query from its source', () => {
      expect(settings(`sources:
  - name: s1
    schema: "{{ target.schema }}"
    config: {loaded_at_query: 'select 1'}
    tables:
      - name: t
        config: {loaded_at_field: id}
  - name: s2
    loaded_at_query: 'select 1'
    tables:
      - name: t
        loaded_at_field: id
  - name: s3
    loaded_at_field: updated_at
    tables:
      - name: t
        loaded_at_field: null
      - name: u
  - name: s4
    loaded_at_query: 'select 1'
    tables:
      - name: t
        loaded_at_query: 'select 2'
`)).toEqual({
        's1.t': { field: 'id', query: null },
        's2.t': { field: 'id', query: null },
        's3.t': { field: null, query: null },
        's3.u': { field: 'updated_at', query: null },
        's4.t': { field: null, query: 'select 2' },
      });
    });

    it('a table whose loaded_at_field: null overrides its source\'s cannot be checked: a runtime error, as on an adapter without metadata freshness', () => {
      const p = loaded(engine, { 'models/schema.yml': 'sources:\n  - name: s\n    schema: "{{ target.schema }}"\n    loaded_at_field: updated_at\n    freshness: {warn_after: {count: 1, period: hour}}\n    tables:\n      - name: t\n        identifier: source\n        loaded_at_field: null\n' }, 2);
      const [result] = run(p).results;
      expect(result).toMatchObject({ status: 'runtime error' });
      expect(result!.message).toContain('it has no loaded_at_field (nor loaded_at_query)');
    });

    it('both at one level (E136), or an empty loaded_at_field (E137), stop the load with the yml line', () => {
      const refusal = (yml: string): string => {
        try {
          settings(yml);
        } catch (err) {
          return isProjectError(err) ? err.format() : String(err);
        }
        return 'loaded';
      };
      const table = 'sources:\n  - name: s\n    tables:\n      - name: t\n        loaded_at_field: id\n        config:\n          loaded_at_query: select 1\n';
      expect(refusal(table)).toContain('models/schema.yml:6: Cannot specify both loaded_at_field and loaded_at_query at table level.');
      const source = 'sources:\n  - name: s\n    loaded_at_field: id\n    loaded_at_query: select 1\n    tables:\n      - name: t\n';
      expect(refusal(source)).toContain('models/schema.yml:4: Cannot specify both loaded_at_field and loaded_at_query at source level.');
      expect(refusal("sources:\n  - name: s\n    tables:\n      - name: t\n        loaded_at_field: ''\n")).toContain('models/schema.yml:5: loaded_at_field cannot be an empty string.');
    });

    it('the project file\'s +loaded_at_field (and +tags) is ignored, as dbt ignores it, with a one-line warning (E138)', () => {
      const warnings: string[] = [];
      const restore = collectUserWarnings((w) => warnings.push(w));
      let found: Record<string, { field: string | null; query: string | null }>;
      try {
        found = settings('sources:\n  - name: s\n    schema: "{{ target.schema }}"\n    tables:\n      - name: t\n', {
          'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nsources:\n  conformance:\n    +loaded_at_field: updated_at\n    +tags: [nightly]\n",
        });
      } finally {
        restore();
      }
      expect(found['s.t']).toEqual({ field: null, query: null });
      expect(warnings).toEqual([
        "dbt_project.yml:6: sources: +loaded_at_field is ignored, as dbt ignores it (each source table's own loaded_at_field, even unset, replaces it): set loaded_at_field on the source or table in its yml",
        "dbt_project.yml:7: sources: +tags is ignored, as dbt ignores it (each source table's own tags, even unset, replaces it): set tags on the source or table in its yml",
      ]);
    });
  });

  describe('project hooks around source freshness (TestHooksInSourceFreshness*, flags: source_freshness_run_project_hooks)', () => {
    const SCHEMA = 'sources:\n  - name: s\n    schema: "{{ target.schema }}"\n    loaded_at_field: updated_at\n    freshness: {warn_after: {count: 10, period: hour}}\n    tables:\n      - name: t\n        identifier: source\n';
    const project = (extra: string) => `name: conformance
version: '1.0'
profile: default
on-run-start:
  - "create table if not exists hook_log (what text)"
  - "insert into hook_log values ('start')"
on-run-end: ["{% for r in results %}insert into hook_log values ('end: {{ r.node.name }} {{ r.status }}');{% endfor %}"]
${extra}`;

    it('run by default (dbt 1.9+), before and after the checks (on-run-end given their results), on a writable warehouse', () => {
      const p = loaded(engine, { 'dbt_project.yml': project(''), 'models/schema.yml': SCHEMA }, 2);
      const out = run(p);
      expect(out.exitCode).toBe(0);
      expect(out.hooks.map((h) => [h.name, h.status])).toEqual([['conformance.on-run-start.0', 'success'], ['conformance.on-run-start.1', 'success'], ['conformance.on-run-end.0', 'success']]);
      // on-run-end sees the freshness results, as dbt's `results`.
      expect(p.rows('hook_log', 'what desc')).toEqual([{ what: 'start' }, { what: 'end: t pass' }]);
    });

    it('not run when the flag is false, with dbt\'s deprecation as a warning; nothing selected runs no hooks', () => {
      const p = loaded(engine, { 'dbt_project.yml': project('flags:\n  source_freshness_run_project_hooks: false\n'), 'models/schema.yml': SCHEMA }, 2);
      const warnings: string[] = [];
      const restore = collectUserWarnings((w) => warnings.push(w));
      try {
        expect(run(p).hooks).toEqual([]);
      } finally {
        restore();
      }
      expect(p.relationType('hook_log')).toBeUndefined();
      expect(warnings.join('\n')).toContain('flags: source_freshness_run_project_hooks is false, so source freshness skips the project\'s on-run-start and on-run-end hooks');
      const none = loaded(engine, { 'dbt_project.yml': project(''), 'models/schema.yml': SCHEMA.replace("freshness: {warn_after: {count: 10, period: hour}}", 'freshness: null') }, 2);
      expect(run(none).hooks).toEqual([]);
      expect(none.relationType('hook_log')).toBeUndefined();
    });

    it('a failing on-run-start hook is a RunResultError naming it (exit 1); the checks still run, as dbt\'s default skip_nodes_if_on_run_start_fails: false', () => {
      const p = loaded(engine, { 'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\non-run-start: ['select fake_column from table_does_not_exist']\n", 'models/schema.yml': SCHEMA }, 2);
      const out = p.dbt(['source', 'freshness']);
      expect(out.code).toBe(1);
      expect(out.stdout).toContain('Failure in on-run-start hook conformance.on-run-start.0');
      // SQLite's words, or PostgreSQL's.
      expect(out.stdout).toMatch(/no such table: table_does_not_exist|relation "table_does_not_exist" does not exist/);
      expect(out.stdout).toContain('1 of 1 PASS freshness of s.t');
      const json = JSON.parse(readFileSync(join(p.dir, 'target/sources.json'), 'utf8')) as { results: { status: string }[] };
      expect(json.results.map((r) => r.status)).toEqual(['pass']);
    });
  });
});

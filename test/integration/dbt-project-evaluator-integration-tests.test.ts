import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbtSqliteProfile } from '../support/dbt-sqlite-profile.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';

/**
 * dbt Labs' dbt_project_evaluator integration_tests project (a deliberately badly modelled project,
 * the package's models finding its faults from the `graph` variable, and equality tests comparing
 * each finding with a seed of what dbt finds), copied from the local mirrors (never committed), the
 * package's dbt_utils dependency pointed at the dbt-utils mirror, built on SQLite with a dbt-sqlite
 * profiles.yml. On a machine without the mirrors the case is reported skipped.
 */
const MIRRORS = process.env.MINI_DBT_MIRRORS ?? '/work/.mirror';
const EVALUATOR = join(MIRRORS, 'dbt-labs+dbt-project-evaluator/repo');
const UTILS = join(MIRRORS, 'dbt-labs+dbt-utils/repo');
const present = existsSync(EVALUATOR) && existsSync(UTILS);


interface Result { unique_id: string; status: string }

(present ? describe : describe.skip)("dbt_project_evaluator's integration_tests project on SQLite", () => {
  let dir = '';
  let deps: CliResult;
  let build: CliResult;
  beforeAll(() => {
    const root = mkdtempSync(join(tmpdir(), 'mini-dbt-evaluator-it-'));
    for (const [mirror, to] of [[EVALUATOR, 'dbt_project_evaluator'], [UTILS, 'dbt_utils']] as const) {
      execSync(`mkdir -p ${JSON.stringify(join(root, to))} && git --git-dir=${JSON.stringify(mirror)} archive HEAD | tar -x -C ${JSON.stringify(join(root, to))}`);
    }
    // The package's own dependency (dbt-labs/dbt_utils from the hub) from the mirror instead: a local path, as dbt
    // resolves a package's local dependencies, relative to the root project (integration_tests/).
    writeFileSync(join(root, 'dbt_project_evaluator/packages.yml'), 'packages:\n  - local: ../../dbt_utils\n');
    dir = join(root, 'dbt_project_evaluator/integration_tests');
    writeFileSync(join(dir, 'profiles.yml'), dbtSqliteProfile(dir, 'integration_tests', 'dev'));
    deps = runCli(['deps', '--project-dir', dir, '--profiles-dir', dir]);
    build = runCli(['build', '--no-version-check', '--project-dir', dir, '--profiles-dir', dir]);
  }, 180_000);

  it('deps installs the package (from ../) and the excluded package; build passes every node', () => {
    expect(deps.code, deps.stdout + deps.stderr).toBe(0);
    const results = (JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as { results: Result[] }).results;
    expect(results.filter((r) => r.status !== 'success' && r.status !== 'pass')).toEqual([]);
    expect(build.stdout).toMatch(/Done\. PASS=154 WARN=0 ERROR=0 SKIP=0 TOTAL=154/);
  });

  it("finds what dbt finds: the undocumented source, the root models (time spines left out), the hard-coded references", () => {
    expect(tableRows(dir, 'fct_undocumented_sources')).toEqual([{ source_name: 'source_2' }]);
    expect(tableRows(dir, 'fct_root_models')).toEqual([{ child: 'int_model_5.v1' }, { child: 'int_model_5.v3' }, { child: 'model_8' }]);
    const references = tableRows(dir, 'fct_hard_coded_references');
    expect(references.map((r) => r.model)).toEqual(['fct_model_6']);
    expect(String(references[0]!.hard_coded_references)).toContain("my_db.my_schema.my_table, my_schema.raw_relation_5, {{ var(\"my_table_reference\") }}");
  });
});

if (!present) {
  describe("dbt_project_evaluator's integration_tests project on SQLite", () => {
    it.skip('mirrors of dbt-labs/dbt-project-evaluator and dbt-labs/dbt-utils not present', () => undefined);
  });
}

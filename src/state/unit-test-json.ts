import type { FixtureRows, UnitTestNode } from '../compile/unit-test-node.js';

function fixtureJson(rows: FixtureRows, input?: string): Record<string, unknown> {
  return {
    ...(input !== undefined ? { input } : {}),
    rows: rows.format === 'sql' ? (rows.sql ?? null) : (rows.rows ?? []),
    format: rows.format,
    fixture: null,
  };
}

/** A unit test as manifest.json's `unit_tests` holds it (dbt's UnitTestDefinition). */
export function unitTestJson(test: UnitTestNode, projectName: string, schema: string): Record<string, unknown> {
  return {
    model: test.model,
    given: test.given.map((g) => fixtureJson(g, g.input)),
    expect: fixtureJson(test.expect),
    name: test.name,
    resource_type: 'unit_test',
    package_name: projectName,
    path: test.path.split('/').slice(1).join('/') || test.path,
    original_file_path: test.path,
    unique_id: test.uniqueId,
    fqn: test.fqn,
    description: test.description ?? '',
    overrides: { macros: test.overrides.macros, vars: test.overrides.vars, env_vars: test.overrides.envVars },
    depends_on: { macros: [], nodes: [...test.dependsOn] },
    config: test.config,
    schema,
    created_at: 0,
    versions: null,
    version: null,
  };
}

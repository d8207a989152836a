import type { TestNode } from '../compile/test-node.js';
import { BUILTIN_TEST_NAMES } from '../compile/jinja/builtin-generic-tests.js';
import { nodeConfigJson } from './node-config-json.js';

/**
 * The test macro a generic test calls, as dbt's depends_on.macros names it: `macro.dbt.test_unique`
 * for a built-in test the project does not override, `macro.dbt_utils.test_equality` for a
 * package's, `macro.<package>.test_<name>` for the test's own package's.
 */
function testMacroId(test: TestNode, packageName: string, hasMacro: (uniqueId: string) => boolean): string {
  const called = /^\{\{\s*([\w.]+)\(/.exec(test.rawSql)?.[1] ?? `test_${test.testName}`;
  const dot = called.indexOf('.');
  if (dot > 0) return `macro.${called.slice(0, dot)}.${called.slice(dot + 1)}`;
  const own = `macro.${packageName}.${called}`;
  return !hasMacro(own) && BUILTIN_TEST_NAMES.includes(test.testName) ? `macro.dbt.${called}` : own;
}

/** A data test as a manifest.json node (dbt's shape: test_metadata for generic tests). */
export function testNodeJson(test: TestNode, packageName: string, hasMacro: (uniqueId: string) => boolean = () => false): Record<string, unknown> {
  return {
    unique_id: test.uniqueId,
    name: test.name,
    resource_type: 'test',
    package_name: packageName,
    fqn: test.fqn,
    alias: test.name,
    schema: 'main',
    database: 'main',
    path: test.testType === 'generic' ? `${test.name}.sql` : test.path.split('/').slice(1).join('/'),
    original_file_path: test.path,
    config: nodeConfigJson('test', test.config),
    tags: Array.isArray(test.config.tags) ? test.config.tags : [],
    description: test.description ?? '',
    depends_on: { macros: test.testType === 'generic' ? [testMacroId(test, packageName, hasMacro)] : [], nodes: test.dependsOn },
    refs: test.refs.map((name) => ({ name, package: null, version: null })),
    sources: test.sources,
    raw_code: test.rawSql,
    language: 'sql',
    column_name: test.columnName ?? null,
    attached_node: test.attachedTo ?? null,
    ...(test.testType === 'generic' ? { test_metadata: { name: test.testName, kwargs: { column_name: test.columnName ?? null, ...test.args }, namespace: null } } : {}),
  };
}

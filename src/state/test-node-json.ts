import type { TestNode } from '../compile/test-node.js';
import { nodeConfigJson } from './node-config-json.js';

/** A data test as a manifest.json node (dbt's shape: test_metadata for generic tests). */
export function testNodeJson(test: TestNode, packageName: string): Record<string, unknown> {
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
    depends_on: { macros: test.testType === 'generic' ? [`macro.${packageName}.test_${test.testName}`] : [], nodes: test.dependsOn },
    refs: test.refs.map((name) => ({ name, package: null, version: null })),
    sources: test.sources,
    raw_code: test.rawSql,
    language: 'sql',
    column_name: test.columnName ?? null,
    attached_node: test.attachedTo ?? null,
    ...(test.testType === 'generic' ? { test_metadata: { name: test.testName, kwargs: { column_name: test.columnName ?? null, ...test.args }, namespace: null } } : {}),
  };
}

import { join } from 'node:path';
import type { Manifest } from '../compile/manifest.js';
import type { NodeResult } from './node-result.js';
import type { Project } from '../project/project.js';
import type { TestNode } from '../compile/test-node.js';
import { writeArtifact } from './artifact-write-error.js';

/** Where dbt writes a test's compiled SQL: under its yml path for generic tests, its own path for singular ones. */
export function compiledTestPath(project: Project, test: TestNode): string {
  const file = test.testType === 'generic' ? `${test.path}/${test.name}.sql` : test.path;
  return join(project.paths.target, 'compiled', project.name, file);
}

/** target/compiled/<project>/<yml path>/<test>.sql for every test that ran. */
export function writeTestArtifacts(project: Project, manifest: Manifest, results: readonly NodeResult[]): void {
  for (const r of results) {
    const test = r.resourceType === 'test' ? manifest.tests.get(r.uniqueId) : undefined;
    if (!test || r.compiledCode === undefined) continue;
    const path = join(project.root, compiledTestPath(project, test));
    writeArtifact(project.root, path, `${r.compiledCode}\n`);
  }
}

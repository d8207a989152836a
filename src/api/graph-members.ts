import type { Manifest } from '../compile/manifest.js';

/**
 * dbt's graph members: a selection keeps only the nodes a command can run.
 * A model or singular test whose file holds nothing but whitespace is
 * "empty" (dbt's `node.empty`): dbt parses it, counts it, lists it (`ls`),
 * but never selects it for run, build, compile or test; a model that refs
 * it then fails on the missing relation, as in dbt. Seeds are never empty.
 * Returns the same set, with the empty nodes taken out.
 */
export function withoutEmptyNodes(manifest: Manifest, selected: Set<string>): Set<string> {
  for (const id of selected) {
    const node = manifest.nodes.get(id);
    const raw = node?.resourceType === 'model' ? node.file.rawSql : manifest.tests.get(id)?.testType === 'singular' ? manifest.tests.get(id)!.rawSql : undefined;
    if (raw !== undefined && raw.trim() === '') selected.delete(id);
  }
  return selected;
}

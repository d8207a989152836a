import type { DocsBlock } from '../project/docs-block.js';

/** One `{{ ... }}` output of a template. */
const OUTPUT = /\{\{-?([\s\S]*?)-?\}\}/g;
/** An output that is exactly one doc() call with literal arguments: `doc('name')` or `doc('package', 'name')`. */
const DOC_CALL = /^doc\(\s*(?:(['"])([^'"]*)\1\s*,\s*)?(['"])([^'"]*)\3\s*\)$/;

/**
 * The docs blocks a description refers to, as dbt's manifest lists them (`doc_blocks`): the unique ids
 * of the blocks named by outputs that are one doc() call with literal arguments (not `doc('x').format(...)`,
 * nor a doc() inside a larger expression), that exist in this project; in order, repeats kept.
 */
export function docBlockRefs(description: string | undefined, blocks: ReadonlyMap<string, DocsBlock>, projectName: string): string[] {
  if (!description || !description.includes('doc(')) return [];
  const out: string[] = [];
  for (const m of description.matchAll(OUTPUT)) {
    const call = DOC_CALL.exec(m[1]!.trim());
    if (!call) continue;
    const pkg = call[2];
    const name = call[4]!;
    if ((pkg === undefined || pkg === projectName) && blocks.has(name)) out.push(`doc.${projectName}.${name}`);
  }
  return out;
}

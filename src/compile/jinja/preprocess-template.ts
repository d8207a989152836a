import { rewriteIsInTests } from './is-in-test.js';
import { rewriteNamespaceSets } from './namespace.js';
import { rewriteUnpackingSets } from './set-unpacking.js';
import { rewriteTestBlocks } from './test-block.js';

/** Source rewrites applied to every template before nunjucks compiles it (line numbers are kept). */
export function preprocessTemplate(source: string): string {
  return rewriteIsInTests(rewriteUnpackingSets(rewriteNamespaceSets(rewriteTestBlocks(source))));
}

import { rewriteNamespaceSets } from './namespace.js';
import { rewriteTestBlocks } from './test-block.js';

/** Source rewrites applied to every template before nunjucks compiles it (line numbers are kept). */
export function preprocessTemplate(source: string): string {
  return rewriteNamespaceSets(rewriteTestBlocks(source));
}

import type nunjucks from 'nunjucks';
import type { NodesModule, ParserInstance } from './nunjucks-internals.js';

/**
 * Jinja's `{% do expr %}` (dbt enables the `do` extension): evaluate the
 * expression for its side effect (`{% do items.append(x) %}`), print nothing.
 */
export function installDoTag(env: nunjucks.Environment): void {
  const extension = {
    tags: ['do'],
    parse(parser: ParserInstance, nodes: NodesModule) {
      const token = parser.nextToken();
      const args = parser.parseSignature(null, true);
      parser.advanceAfterBlockEnd(token.value);
      return new nodes.CallExtension(extension, 'run', args, []);
    },
    run(): string {
      return '';
    },
  };
  env.addExtension('MiniDbtDoTag', extension as unknown as nunjucks.Extension);
}

import nunjucks from 'nunjucks';
import { SETATTR_GLOBAL } from './namespace.js';
import { internals } from './nunjucks-internals.js';

type Token = { type: string; value: string; lineno: number; colno: number };
type AstNode = { lineno: number; colno: number; typename: string; args?: { children: AstNode[] }; target?: AstNode; val?: AstNode };
interface Parser {
  peekToken(): Token;
  nextToken(): Token | null;
  skip(type: string): boolean;
  skipValue(type: string, value: string): boolean;
  skipSymbol(name: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
  parsePrimary(): AstNode | null;
  parseExpression(): AstNode;
  parseFilter(node: AstNode): AstNode;
  parseUntilBlocks(...names: string[]): AstNode;
  advanceAfterBlockEnd(name?: string): Token;
  dropLeadingWhitespace: boolean;
}
type SetNode = AstNode & { targets: AstNode[]; value: AstNode | null; body?: AstNode };

const lexer = (nunjucks as unknown as { lexer: Record<string, string> }).lexer;
const nodes = internals.nodes as unknown as Record<string, new (...args: unknown[]) => AstNode>;

let patched = false;

/**
 * Jinja's `{% set %}` tag: `{% set x = expr %}`, and the block form
 * `{% set x %}...{% endset %}` with `-%}` trimming the body's leading
 * whitespace (nunjucks ignored it there) and filters applied to the
 * captured text: `{% set x | upper %}...{% endset %}`. The block form also
 * sets a namespace's attribute, as Jinja's does: `{% set ns.msg %}...{% endset %}`
 * captures into a hidden name, then sets the attribute from it.
 */
export function installSetBlock(): void {
  if (patched) return;
  patched = true;
  const proto = internals.parser.Parser.prototype as Record<string, unknown>;
  proto.parseSet = function parseSet(this: Parser): AstNode {
    const tag = this.peekToken();
    if (!this.skipSymbol('set')) this.fail('parseSet: expected set', tag.lineno, tag.colno);
    const node = new nodes.Set!(tag.lineno, tag.colno, []) as SetNode;
    for (let target = this.parsePrimary(); target; target = this.parsePrimary()) {
      node.targets.push(target);
      if (!this.skip(lexer.TOKEN_COMMA!)) break;
    }
    if (this.skipValue(lexer.TOKEN_OPERATOR!, '=')) {
      node.value = this.parseExpression();
      this.advanceAfterBlockEnd(tag.value);
      return node;
    }
    // The block form: the captured text goes through the filters, innermost first.
    const placeholder = new nodes.Symbol!(tag.lineno, tag.colno, 'set');
    const filtered = this.parseFilter(placeholder);
    const end = this.nextToken();
    if (!end || end.type !== lexer.TOKEN_BLOCK_END) this.fail('parseSet: expected = or block end in set tag', tag.lineno, tag.colno);
    if (end.value.startsWith('-')) this.dropLeadingWhitespace = true;
    const capture = new nodes.Capture!(tag.lineno, tag.colno, this.parseUntilBlocks('endset'));
    let innermost: AstNode | undefined;
    for (let f: AstNode | undefined = filtered; f && f !== placeholder; f = f.args?.children[0]) innermost = f;
    if (innermost) innermost.args!.children[0] = capture;
    node.body = innermost ? filtered : capture;
    node.value = null;
    this.advanceAfterBlockEnd();
    const target = node.targets[0];
    return node.targets.length === 1 && target?.typename === 'LookupVal' ? setAttributeFromBlock(node, target) : node;
  };
}

const BLOCK_VALUE = '__mini_dbt_set_block';

/** `{% set ns.attr %}body{% endset %}`: `{% set <hidden> %}body{% endset %}{% do setattr(ns, 'attr', <hidden>) %}`. */
function setAttributeFromBlock(node: SetNode, target: AstNode): AstNode {
  const { lineno, colno } = node;
  node.targets = [new nodes.Symbol!(lineno, colno, BLOCK_VALUE)];
  const args = new nodes.NodeList!(lineno, colno, [target.target, target.val, new nodes.Symbol!(lineno, colno, BLOCK_VALUE)]);
  const call = new nodes.FunCall!(lineno, colno, new nodes.Symbol!(lineno, colno, SETATTR_GLOBAL), args);
  return new nodes.NodeList!(lineno, colno, [node, new nodes.Output!(lineno, colno, [call])]);
}

import nunjucks from 'nunjucks';
import { internals } from './nunjucks-internals.js';

type Token = { type: string; value: string; lineno: number; colno: number };
type AstNode = { lineno: number; colno: number };
interface Parser {
  tokens: { _extractRegex(re: RegExp): RegExpMatchArray | null };
  dropLeadingWhitespace: boolean;
  peekToken(): Token;
  skip(type: string): boolean;
  skipSymbol(name: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
  parseOr(): AstNode;
  parseFilterName(): AstNode;
  parseFilterArgs(node: AstNode): AstNode[];
  parseUntilBlocks(...names: string[]): AstNode;
  advanceAfterBlockEnd(name?: string): Token;
}

const lexer = (nunjucks as unknown as { lexer: Record<string, string> }).lexer;
const nodes = internals.nodes as unknown as Record<string, new (...args: unknown[]) => AstNode & Record<string, unknown>>;

/**
 * `{% raw %}` with whitespace control (`{%- raw -%} ... {%- endraw -%}`), as
 * Jinja reads it; nunjucks' raw block knew no `-` and read on to the end.
 */
function parseRaw(this: Parser, tagName = 'raw'): AstNode {
  const begun = this.advanceAfterBlockEnd();
  // The body is taken as it is, so the opening tag's `-%}` is applied here, not to the text after the block.
  const trimStart = begun.value.startsWith('-');
  this.dropLeadingWhitespace = false;
  const tag = new RegExp(`([\\s\\S]*?)\\{%(-?)\\s*(${tagName}|end${tagName})\\s*(-?)%\\}`);
  let depth = 1;
  let text = '';
  let closed = false;
  for (let m = this.tokens._extractRegex(tag); m; m = this.tokens._extractRegex(tag)) {
    depth += m[3] === tagName ? 1 : -1;
    if (depth === 0) {
      text += m[2] === '-' ? m[1]!.trimEnd() : m[1]!;
      if (m[4] === '-') this.dropLeadingWhitespace = true;
      closed = true;
      break;
    }
    text += m[0];
  }
  if (!closed) this.fail(`Unexpected end of template. Jinja was looking for the following tags: 'end${tagName}'. The innermost block that needs to be closed is '${tagName}'.`, begun.lineno, begun.colno);
  if (trimStart) text = text.trimStart();
  return new nodes.Output!(begun.lineno, begun.colno, [new nodes.TemplateData!(begun.lineno, begun.colno, text)]);
}

/** `{% filter name(args) | other %}...{% endfilter %}`: a chain of filters, as Jinja allows. */
function parseFilterStatement(this: Parser): AstNode {
  const tag = this.peekToken();
  if (!this.skipSymbol('filter')) this.fail('parseFilterStatement: expected filter');
  const chain: { name: AstNode; args: AstNode[] }[] = [];
  do {
    const name = this.parseFilterName();
    chain.push({ name, args: this.parseFilterArgs(name) });
  } while (this.skip(lexer.TOKEN_PIPE!));
  this.advanceAfterBlockEnd(tag.value);
  const first = chain[0]!.name;
  let node: AstNode = new nodes.Capture!(first.lineno, first.colno, this.parseUntilBlocks('endfilter'));
  this.advanceAfterBlockEnd();
  for (const { name, args } of chain) node = new nodes.Filter!(name.lineno, name.colno, name, new nodes.NodeList!(name.lineno, name.colno, [node, ...args]));
  return new nodes.Output!(first.lineno, first.colno, [node]);
}

/** `a if x else b if y else c`: the else branch may be an inline if itself. */
function parseInlineIf(this: Parser & { parseInlineIf(): AstNode }): AstNode {
  const body = this.parseOr();
  if (!this.skipSymbol('if')) return body;
  const node = new nodes.InlineIf!(body.lineno, body.colno);
  node.body = body;
  node.cond = this.parseOr();
  node.else_ = this.skipSymbol('else') ? this.parseInlineIf() : null;
  return node;
}

/** `'a' 'b'`: adjacent string literals are one string, as in Jinja (and Python). */
function withAdjacentStrings(parsePrimary: (this: Parser, noPostfix?: boolean) => AstNode & { typename?: string; value?: unknown }) {
  return function parsePrimaryJoined(this: Parser & { nextToken(): Token }, noPostfix?: boolean): AstNode {
    const node = parsePrimary.call(this, noPostfix);
    if (node && node.typename === 'Literal' && typeof node.value === 'string') {
      while (this.peekToken()?.type === lexer.TOKEN_STRING) node.value += this.nextToken().value;
    }
    return node;
  };
}

let patched = false;

/** Jinja's raw blocks, filter blocks, inline-if chains and adjacent string literals, where nunjucks' parser differs. */
export function installBlockParsers(): void {
  if (patched) return;
  patched = true;
  const proto = internals.parser.Parser.prototype as Record<string, unknown>;
  proto.parseRaw = parseRaw;
  proto.parseFilterStatement = parseFilterStatement;
  proto.parseInlineIf = parseInlineIf;
  proto.parsePrimary = withAdjacentStrings(proto.parsePrimary as Parameters<typeof withAdjacentStrings>[0]);
}

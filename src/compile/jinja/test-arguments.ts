import nunjucks from 'nunjucks';
import { internals } from './nunjucks-internals.js';

type Token = { type: string; value: string; lineno: number; colno: number };
type AstNode = { lineno: number; colno: number };
interface Parser {
  peekToken(): Token;
  nextToken(): Token;
  skipSymbol(name: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
  parseCompare(): AstNode;
  parsePrimary(): AstNode;
  parsePostfix(node: AstNode): AstNode;
  parseSignature(tolerant?: boolean | null, noParens?: boolean): AstNode;
}

const lexer = (nunjucks as unknown as { lexer: Record<string, string> }).lexer;
const nodes = internals.nodes as unknown as Record<string, new (...args: unknown[]) => AstNode>;
/** Jinja's tokens that start a test's single argument without parentheses (`is divisibleby 3`). */
const ARGUMENT_STARTS = new Set([lexer.TOKEN_SYMBOL, lexer.TOKEN_NONE, lexer.TOKEN_BOOLEAN, lexer.TOKEN_STRING, lexer.TOKEN_INT, lexer.TOKEN_FLOAT, lexer.TOKEN_LEFT_BRACKET, lexer.TOKEN_LEFT_CURLY]);
const TEST_NAMES = new Set([lexer.TOKEN_SYMBOL, lexer.TOKEN_NONE, lexer.TOKEN_BOOLEAN, lexer.TOKEN_OPERATOR]);
const NOT_AN_ARGUMENT = new Set(['else', 'or', 'and', 'if', 'is', 'in', 'not', 'recursive']);

let patched = false;

/**
 * `x is test`, `x is test(arg)` and, as Jinja allows, `x is test arg` with
 * one bare argument: `is divisibleby 3`, `is sameas none`, `is eq 2`,
 * `is equalto 'a'`. Replaces nunjucks' parseIs, which parsed the test as an
 * expression and stopped before a bare argument.
 */
export function installTestArguments(): void {
  if (patched) return;
  patched = true;
  const proto = internals.parser.Parser.prototype as Record<string, unknown>;
  proto.parseIs = function parseIs(this: Parser): AstNode {
    let node = this.parseCompare();
    if (!this.skipSymbol('is')) return node;
    const not = this.skipSymbol('not');
    const nameTok = this.nextToken();
    if (!TEST_NAMES.has(nameTok.type)) this.fail(`expected a test name after 'is', got '${nameTok.value}'`, nameTok.lineno, nameTok.colno);
    const name = new nodes.Symbol!(nameTok.lineno, nameTok.colno, nameTok.value);
    let test: AstNode = name;
    const next = this.peekToken();
    if (next.type === lexer.TOKEN_LEFT_PAREN) {
      test = new nodes.FunCall!(nameTok.lineno, nameTok.colno, name, this.parseSignature());
    } else if (ARGUMENT_STARTS.has(next.type) && !(next.type === lexer.TOKEN_SYMBOL && NOT_AN_ARGUMENT.has(next.value))) {
      const arg = this.parsePostfix(this.parsePrimary());
      test = new nodes.FunCall!(nameTok.lineno, nameTok.colno, name, new nodes.NodeList!(arg.lineno, arg.colno, [arg]));
    }
    node = new nodes.Is!(node.lineno, node.colno, node, test);
    return not ? new nodes.Not!(node.lineno, node.colno, node) : node;
  };
}

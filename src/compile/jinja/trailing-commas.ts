import nunjucks from 'nunjucks';
import { starNode } from './call-spreading.js';
import { internals } from './nunjucks-internals.js';

interface Token {
  readonly type: string;
  readonly value: string;
  readonly lineno: number;
  readonly colno: number;
}

interface AstNode {
  readonly lineno: number;
  readonly colno: number;
  readonly children: AstNode[];
  addChild(node: AstNode): void;
}

type NodeClass = new (lineno: number, colno: number, ...fields: unknown[]) => AstNode;

interface Parser {
  peekToken(): Token;
  nextToken(): Token;
  skip(type: string): boolean;
  skipValue(type: string, value: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
  parsePrimary(): AstNode;
  parseExpression(): AstNode;
  /** Set by a macro definition or call block: the next signature is a parameter list (no trailing comma, as in Jinja). */
  miniDbtParameterList?: boolean;
}

const lexer = (nunjucks as unknown as { lexer: Record<string, string> }).lexer;
const nodes = (nunjucks as unknown as { nodes: Record<string, NodeClass> }).nodes;
const LEFT_PAREN = lexer.TOKEN_LEFT_PAREN!;
const LEFT_BRACKET = lexer.TOKEN_LEFT_BRACKET!;
const LEFT_CURLY = lexer.TOKEN_LEFT_CURLY!;
const RIGHT_PAREN = lexer.TOKEN_RIGHT_PAREN!;
const CLOSERS = new Set([RIGHT_PAREN, lexer.TOKEN_RIGHT_BRACKET!, lexer.TOKEN_RIGHT_CURLY!]);
const COMMA = lexer.TOKEN_COMMA!;
const BLOCK_END = lexer.TOKEN_BLOCK_END!;
const OPERATOR = lexer.TOKEN_OPERATOR!;

let installed = false;

/**
 * Trailing commas, as Jinja parses them: a call's arguments (`config(materialized='view',)`,
 * `f(1, key=2,)`, a filter's), a list `[1, 2,]`, a dict `{'a': 1,}` and a tuple `(1,)` or
 * `('a', 'b',)` (a list here, as every tuple is) end with an optional comma; a comma alone (`f(,)`,
 * `[,]`) or two in a row stay errors, and so does one ending a macro's or call block's parameter
 * list (`{% macro m(a,) %}`), which Jinja's parse_signature refuses.
 *
 * nunjucks' parseAggregate and parseSignature are replaced by the same loops with the optional comma.
 * Install before nunjucks.installJinjaCompat(): its slice support wraps the parseAggregate it finds.
 */
export function installTrailingCommas(): void {
  if (installed) return;
  installed = true;
  const proto = internals.parser.Parser.prototype as Record<string, unknown>;
  proto.parseAggregate = parseAggregate;
  proto.parseSignature = parseSignature;
  for (const name of ['parseMacro', 'parseCall']) {
    const original = proto[name] as (this: Parser) => unknown;
    proto[name] = function parseWithParameterList(this: Parser): unknown {
      this.miniDbtParameterList = true;
      return original.call(this);
    };
  }
}

function parseAggregate(this: Parser): AstNode | null {
  const tok = this.nextToken();
  const kind = tok.type === LEFT_PAREN ? 'Group' : tok.type === LEFT_BRACKET ? 'Array' : tok.type === LEFT_CURLY ? 'Dict' : undefined;
  if (!kind) return null;
  const node = new nodes[kind]!(tok.lineno, tok.colno);
  let trailingComma = false;
  for (;;) {
    if (CLOSERS.has(this.peekToken().type)) {
      this.nextToken();
      break;
    }
    if (node.children.length > 0) {
      if (!this.skip(COMMA)) {
        const got = this.peekToken();
        this.fail(`expected token ',', got '${got.value}'`, got.lineno, got.colno);
      }
      if (CLOSERS.has(this.peekToken().type)) {
        this.nextToken();
        trailingComma = true;
        break;
      }
    }
    if (kind === 'Dict') {
      // Jinja's dict key is any expression: `{k: 1}` uses k's value, `{k ~ '_2': 2}` computes one.
      const key = this.parseExpression();
      if (!this.skip(lexer.TOKEN_COLON!)) {
        const got = this.peekToken();
        this.fail(`expected token ':', got '${got.value}'`, got.lineno, got.colno);
      }
      const value = this.parseExpression();
      node.addChild(Object.assign(new nodes.Pair!(key.lineno, key.colno, key, value), { miniDbtComputedKey: true }));
    } else {
      node.addChild(this.parseExpression());
    }
  }
  // `(x,)` is a one-item tuple, not a parenthesized x.
  if (trailingComma && kind === 'Group') return Object.assign(new nodes.Array!(node.lineno, node.colno, node.children), { miniDbtTuple: true });
  return node;
}

function parseSignature(this: Parser, tolerant: boolean | null, noParens: boolean): AstNode | null {
  const parameterList = this.miniDbtParameterList === true;
  this.miniDbtParameterList = false;
  let tok = this.peekToken();
  if (!noParens && tok.type !== LEFT_PAREN) {
    if (tolerant) return null;
    this.fail('expected arguments', tok.lineno, tok.colno);
  }
  if (tok.type === LEFT_PAREN) tok = this.nextToken();
  const args = new nodes.NodeList!(tok.lineno, tok.colno);
  const kwargs = new nodes.KeywordArgs!(tok.lineno, tok.colno);
  let checkComma = false;
  const seen = { keyword: false, star: false, doubleStar: false };
  for (;;) {
    tok = this.peekToken();
    if (!noParens && tok.type === RIGHT_PAREN) {
      this.nextToken();
      break;
    } else if (noParens && tok.type === BLOCK_END) {
      break;
    }
    if (checkComma) {
      if (!this.skip(COMMA)) this.fail('parseSignature: expected comma after expression', tok.lineno, tok.colno);
      if (!noParens && !parameterList && this.peekToken().type === RIGHT_PAREN) {
        this.nextToken();
        break;
      }
    }
    const star = this.peekToken();
    // Jinja's order: positional arguments, `*args`, keyword arguments, `**kwargs` (each spread once).
    const misplaced = () => this.fail(parameterList ? 'non-default argument follows default argument' : 'invalid syntax for function call expression', star.lineno, star.colno);
    if (!parameterList && star.type === OPERATOR && (star.value === '*' || star.value === '**')) {
      // `f(*args)`, `f(**kwargs)` (call-spreading.ts).
      if (seen.doubleStar || (star.value === '*' && seen.star)) misplaced();
      this.nextToken();
      const value = this.parseExpression();
      (star.value === '*' ? args : kwargs).addChild(starNode(star.value === '**', star.lineno, star.colno, value) as unknown as AstNode);
      if (star.value === '*') seen.star = true;
      else seen.doubleStar = true;
      checkComma = true;
      continue;
    }
    const arg = this.parseExpression();
    if (this.skipValue(OPERATOR, '=')) {
      if (seen.doubleStar) misplaced();
      kwargs.addChild(new nodes.Pair!(arg.lineno, arg.colno, arg, this.parseExpression()));
      seen.keyword = true;
    } else {
      if (seen.keyword || seen.star || seen.doubleStar) misplaced();
      args.addChild(arg);
    }
    checkComma = true;
  }
  if (kwargs.children.length > 0) args.addChild(kwargs);
  return args;
}

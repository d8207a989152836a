import { jinjaOutputText } from './python-output.js';
import { truthy } from './python-truth.js';
import { guardValue } from './sandbox-policy.js';
import { nextTagStart } from './next-tag-start.js';

/**
 * A fast path for the templates most models are: SQL text with `{{ ... }}`
 * calls of ref/source/config/var/macros on literal arguments, comments, and
 * `{% if is_incremental() %}` blocks. Such a template is parsed here in one
 * pass and rendered by walking it, instead of nunjucks compiling it to
 * JavaScript (lexer, parser, code generator and `new Function`: most of a
 * cold compile's time). Like dbt's static parser, it accepts a small subset
 * and says no to everything else: `parseSimpleTemplate` returns null and
 * the template goes to nunjucks.
 *
 * The subset renders exactly as nunjucks renders it (the differential tests
 * compare them on random templates and every fixture model): the same
 * whitespace control (`{%-`, `-%}`, `{{-`, `-}}`, `{#-`, `-#}` trim the
 * adjacent text), the same name lookup (template locals, then globals),
 * the same call convention (keyword arguments as a trailing object marked
 * `__keywords`), the same output conversion (undefined and null print
 * nothing, anything else is concatenated) and Python's truth in `if`
 * (python-truth.ts), as nunjucks is patched to compile it.
 *
 * Accepted: text without `#}`; comments; `{{ expr }}`; `{% if cond %}`,
 * `{% elif cond %}`, `{% else %}`, `{% endif %}` where cond is `expr` or
 * `not expr`; expr is a string without backslashes, an unsigned number,
 * true/false/none, a list of exprs, a name, or a call `name(expr, ...,
 * key=expr, ...)` (a list or call may end in a comma, as in Jinja).
 */

export type Expr =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'list'; readonly items: readonly Expr[] }
  /** `at`: where its '(' is in the source (nunjucks reports a failing call there). */
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Expr[]; readonly keywords: readonly (readonly [string, Expr])[]; readonly at: number }
  | { readonly kind: 'not'; readonly expr: Expr };

export type SimpleNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'output'; readonly expr: Expr }
  | { readonly kind: 'if'; readonly branches: readonly { readonly cond: Expr; readonly body: readonly SimpleNode[] }[]; readonly otherwise: readonly SimpleNode[] };

export interface SimpleTemplate {
  readonly source: string;
  readonly nodes: readonly SimpleNode[];
}

interface Token {
  readonly type: 'text' | 'output' | 'block' | 'comment';
  /** Text, or the tag's content without delimiters and trim markers. */
  readonly value: string;
  /** Where value starts in the source. */
  readonly at: number;
  readonly trimBefore: boolean;
  readonly trimAfter: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NUMBER = /^[0-9]+(\.[0-9]+)?$/;
/** The block tags of the subset. */
const BLOCK_KEYWORDS = new Set(['if', 'elif', 'else', 'endif']);
/** Words nunjucks reads as operators or keywords, never as a plain name. */
const RESERVED = new Set(['not', 'and', 'or', 'in', 'is', 'if', 'else', 'elif', 'endif', 'for', 'null', 'True', 'False', 'None']);

/** The template as simple nodes, or null when it uses anything outside the subset. */
export function parseSimpleTemplate(source: string): SimpleTemplate | null {
  const tokens = tokenize(source);
  if (!tokens) return null;
  const parsed = parseNodes(tokens, 0, false);
  if (!parsed || parsed.next !== tokens.length) return null;
  return { source, nodes: parsed.nodes };
}

function tokenize(source: string): Token[] | null {
  const raw: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const start = nextTagStart(source, i);
    if (start > i) raw.push({ type: 'text', value: source.slice(i, start), at: i, trimBefore: false, trimAfter: false });
    if (start === source.length) break;
    const opener = source[start + 1];
    let from = start + 2;
    const trimBefore = source[from] === '-';
    if (trimBefore) from += 1;
    if (opener === '#') {
      const end = source.indexOf('#}', from);
      if (end < 0) return null;
      raw.push({ type: 'comment', value: '', at: from, trimBefore, trimAfter: source[end - 1] === '-' });
      i = end + 2;
      continue;
    }
    const closer = opener === '{' ? '}}' : '%}';
    const end = findCloser(source, from, closer);
    if (end < 0) return null;
    const trimAfter = source[end - 1] === '-' && end - 1 >= from;
    const value = source.slice(from, trimAfter ? end - 1 : end);
    // A tag outside the subset (set, for, macro, ...): no need to read the rest (parseNodes would refuse it there).
    if (opener === '%' && !BLOCK_KEYWORDS.has(/^[a-z]+/.exec(value.trim())?.[0] ?? '')) return null;
    raw.push({ type: opener === '{' ? 'output' : 'block', value, at: from, trimBefore, trimAfter });
    i = end + 2;
  }
  // Whitespace control: a tag's '-' trims the text next to it.
  for (let k = 0; k < raw.length; k++) {
    const t = raw[k]!;
    if (t.type !== 'text') continue;
    let text = t.value;
    if (text.includes('#}')) return null;
    if (k > 0 && raw[k - 1]!.trimAfter) text = text.replace(/^\s*/, '');
    if (k + 1 < raw.length && raw[k + 1]!.trimBefore) text = text.replace(/\s*$/, '');
    if (text !== t.value) raw[k] = { ...t, value: text };
  }
  return raw;
}

/** Where the tag's closer starts, skipping quoted strings; -1 when unclosed or a string holds a backslash. */
function findCloser(source: string, from: number, closer: string): number {
  for (let k = from; k < source.length; k++) {
    const c = source[k];
    if (c === "'" || c === '"') {
      const close = source.indexOf(c, k + 1);
      if (close < 0 || source.slice(k + 1, close).includes('\\')) return -1;
      k = close;
    } else if (c === closer[0] && source[k + 1] === closer[1]) {
      return k;
    }
  }
  return -1;
}

function parseNodes(tokens: readonly Token[], from: number, inIf: boolean): { nodes: SimpleNode[]; next: number } | null {
  const nodes: SimpleNode[] = [];
  let k = from;
  while (k < tokens.length) {
    const t = tokens[k]!;
    if (t.type === 'text') {
      if (t.value !== '') nodes.push({ kind: 'text', text: t.value });
      k += 1;
    } else if (t.type === 'comment') {
      k += 1;
    } else if (t.type === 'output') {
      const expr = parseExpression(t.value, t.at, false);
      if (!expr) return null;
      nodes.push({ kind: 'output', expr });
      k += 1;
    } else {
      const words = t.value.trim();
      const keyword = /^[a-z]+/.exec(words)?.[0] ?? '';
      if (keyword === 'elif' || keyword === 'else' || keyword === 'endif') {
        return inIf ? { nodes, next: k } : null;
      }
      if (keyword !== 'if') return null;
      const block = parseIf(tokens, k);
      if (!block) return null;
      nodes.push(block.node);
      k = block.next;
    }
  }
  return inIf ? null : { nodes, next: k };
}

function parseIf(tokens: readonly Token[], at: number): { node: SimpleNode; next: number } | null {
  const branches: { cond: Expr; body: readonly SimpleNode[] }[] = [];
  let otherwise: readonly SimpleNode[] = [];
  let k = at;
  for (;;) {
    // The tag is 'if cond' or 'elif cond'.
    const tag = tokens[k]!;
    const keyword = /^\s*(if|elif)(?=[\s(])/.exec(tag.value);
    if (!keyword) return null;
    const cond = parseExpression(tag.value.slice(keyword[0].length), tag.at + keyword[0].length, true);
    if (!cond) return null;
    const body = parseNodes(tokens, k + 1, true);
    if (!body) return null;
    branches.push({ cond, body: body.nodes });
    k = body.next;
    const words = tokens[k]!.value.trim();
    if (words === 'endif') return { node: { kind: 'if', branches, otherwise }, next: k + 1 };
    if (words === 'else') {
      const rest = parseNodes(tokens, k + 1, true);
      if (!rest || tokens[rest.next]!.value.trim() !== 'endif') return null;
      otherwise = rest.nodes;
      return { node: { kind: 'if', branches, otherwise }, next: rest.next + 1 };
    }
    if (!/^elif[\s(]/.test(words)) return null;
  }
}

interface Lexeme {
  readonly text: string;
  /** Where it is in the template source. */
  readonly at: number;
}

/** Lexes an expression starting at `base` in the source; null on any character outside the subset. */
function lex(text: string, base: number): Lexeme[] | null {
  const out: Lexeme[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
    } else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return null;
      out.push({ text: text.slice(i, close + 1), at: base + i });
      i = close + 1;
    } else if ('()[],'.includes(c)) {
      out.push({ text: c, at: base + i });
      i += 1;
    } else if (c === '=') {
      if (text[i + 1] === '=') return null;
      out.push({ text: c, at: base + i });
      i += 1;
    } else {
      let end = i;
      while (end < text.length && isWordChar(text.charCodeAt(end))) end += 1;
      if (end === i) return null;
      out.push({ text: text.slice(i, end), at: base + i });
      i = end;
    }
  }
  return out;
}

/** [A-Za-z0-9_.] */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46;
}

function parseExpression(text: string, base: number, allowNot: boolean): Expr | null {
  const lexemes = lex(text, base);
  if (!lexemes || lexemes.length === 0) return null;
  const tokens = lexemes.map((l) => l.text);
  let k = 0;
  let negate = false;
  if (allowNot && tokens[0] === 'not') {
    negate = true;
    k = 1;
  }
  const parsed = parsePrimary(tokens, k, lexemes);
  if (!parsed || parsed.next !== tokens.length) return null;
  return negate ? { kind: 'not', expr: parsed.expr } : parsed.expr;
}

function parsePrimary(tokens: readonly string[], k: number, lexemes: readonly Lexeme[]): { expr: Expr; next: number } | null {
  const t = tokens[k];
  if (t === undefined) return null;
  const first = t.charCodeAt(0);
  if (first === 39 || first === 34) return { expr: { kind: 'literal', value: t.slice(1, -1) }, next: k + 1 }; // ' or "
  if (first >= 48 && first <= 57 && NUMBER.test(t)) return { expr: { kind: 'literal', value: Number(t) }, next: k + 1 };
  if (t === 'true' || t === 'false') return { expr: { kind: 'literal', value: t === 'true' }, next: k + 1 };
  if (t === 'none') return { expr: { kind: 'literal', value: null }, next: k + 1 };
  if (t === '[') {
    const items = parseList(tokens, k + 1, ']', lexemes);
    return items && items.keywords.length === 0 ? { expr: { kind: 'list', items: items.args }, next: items.next } : null;
  }
  if (!NAME.test(t) || RESERVED.has(t)) return null;
  if (tokens[k + 1] !== '(') return { expr: { kind: 'name', name: t }, next: k + 1 };
  const args = parseList(tokens, k + 2, ')', lexemes);
  return args ? { expr: { kind: 'call', name: t, args: args.args, keywords: args.keywords, at: lexemes[k + 1]!.at }, next: args.next } : null;
}

/** Comma-separated exprs (and `key=expr` after them) up to `close`, optionally ending in a comma. */
function parseList(tokens: readonly string[], k: number, close: string, lexemes: readonly Lexeme[]): { args: Expr[]; keywords: [string, Expr][]; next: number } | null {
  const args: Expr[] = [];
  const keywords: [string, Expr][] = [];
  if (tokens[k] === close) return { args, keywords, next: k + 1 };
  for (;;) {
    const name = tokens[k];
    if (close === ')' && name !== undefined && tokens[k + 1] === '=') {
      if (!NAME.test(name) || RESERVED.has(name) || keywords.some(([n]) => n === name)) return null;
      const value = parsePrimary(tokens, k + 2, lexemes);
      if (!value) return null;
      keywords.push([name, value.expr]);
      k = value.next;
    } else {
      if (keywords.length > 0) return null;
      const value = parsePrimary(tokens, k, lexemes);
      if (!value) return null;
      args.push(value.expr);
      k = value.next;
    }
    if (tokens[k] === close) return { args, keywords, next: k + 1 };
    if (tokens[k] !== ',') return null;
    // A trailing comma, as Jinja allows in calls and lists (nunjucks is patched alike: trailing-commas.ts).
    if (tokens[k + 1] === close) return { args, keywords, next: k + 2 };
    k += 1;
  }
}

/** Where a render is: the last call started (nunjucks' `lineno`/`colno`), -1 before any. */
interface Position {
  at: number;
}

/**
 * Render: `lookup` resolves a name as nunjucks does (template locals, then
 * globals). A failure comes back with `onError(error, line, column)`, both
 * 0-based, at the last call started before it, which is what nunjucks
 * records for its own error message.
 */
export function renderSimpleTemplate(template: SimpleTemplate, lookup: (name: string) => unknown, onError: (error: unknown, line: number, column: number) => Error): string {
  const position: Position = { at: -1 };
  try {
    return renderNodes(template.nodes, lookup, position);
  } catch (err) {
    if (position.at < 0) throw onError(err, 0, 0);
    const before = template.source.slice(0, position.at);
    const line = before.split('\n').length - 1;
    throw onError(err, line, position.at - (before.lastIndexOf('\n') + 1));
  }
}

function renderNodes(nodes: readonly SimpleNode[], lookup: (name: string) => unknown, position: Position): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') {
      out += node.text;
    } else if (node.kind === 'output') {
      const value = evaluate(node.expr, lookup, position);
      out += jinjaOutputText(value) as string;
    } else {
      const branch = node.branches.find((b) => truthy(evaluate(b.cond, lookup, position)));
      out += renderNodes(branch ? branch.body : node.otherwise, lookup, position);
    }
  }
  return out;
}

function evaluate(expr: Expr, lookup: (name: string) => unknown, position: Position): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'name':
      return lookup(expr.name);
    case 'list':
      return expr.items.map((item) => evaluate(item, lookup, position));
    case 'not':
      return !truthy(evaluate(expr.expr, lookup, position));
    case 'call': {
      position.at = expr.at;
      const fn = lookup(expr.name);
      const args = expr.args.map((a) => evaluate(a, lookup, position));
      if (expr.keywords.length > 0) {
        const keywords: Record<string, unknown> = {};
        for (const [name, value] of expr.keywords) keywords[name] = evaluate(value, lookup, position);
        args.push(Object.assign(keywords, { __keywords: true }));
      }
      // Same messages as nunjucks' callWrap.
      if (!fn) throw new Error(`Unable to call \`${expr.name}\`, which is undefined or falsey`);
      if (typeof fn !== 'function') throw new Error(`Unable to call \`${expr.name}\`, which is not a function`);
      // The sandbox's checks on a call, as on nunjucks' callWrap (install-sandbox.ts).
      guardValue(fn);
      return guardValue((fn as (...a: unknown[]) => unknown)(...args));
    }
  }
}

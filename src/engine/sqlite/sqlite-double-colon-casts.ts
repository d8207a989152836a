import { closingParen, isWordChar, skipQuoted } from './sqlite-sql-scan.js';

/**
 * PostgreSQL's `expr::type` casts on SQLite, which has no `::`: many dbt
 * projects written for PostgreSQL, Snowflake or Redshift use them
 * (`(price / 100)::numeric(16, 2)`, `id::text`, `'2024-01-01'::date`), and
 * SQLite refuses them with "unrecognized token". The engine reads each as
 * `cast(expr as type)` (so `x::date` then becomes `date(x)`, see
 * sqlite-date-casts.ts). `expr` is what `::` binds to in PostgreSQL, the
 * primary expression just before it: a parenthesized group (with the
 * function name before it, if any), a string literal or quoted name, a
 * (dotted) name or a number; `type` is a name (with PostgreSQL's two- and
 * three-word types), its `(args)`, and `[]`. Text in string literals, quoted
 * names and comments is never touched; a `::` whose operand cannot be read is
 * left for SQLite to refuse.
 */
export function rewriteDoubleColonCasts(sql: string): string {
  if (!sql.includes('::')) return sql;
  let text = sql;
  // One cast at a time, from the left: a chain (x::text::int) casts the first cast's result.
  for (let guard = 0; guard < 10_000; guard++) {
    const at = firstCast(text);
    if (at < 0) return text;
    const start = operandStart(text, at);
    const type = typeAfter(text, at + 2);
    if (start < 0 || type === undefined) return text;
    text = `${text.slice(0, start)}cast(${text.slice(start, at).trimEnd()} as ${type.text})${text.slice(type.end)}`;
  }
  return text;
}

/** The index of the first `::` outside quotes and comments, or -1. */
function firstCast(sql: string): number {
  for (let i = 0; i < sql.length; ) {
    const skipped = skipQuoted(sql, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (sql[i] === ':' && sql[i + 1] === ':') return i;
    i++;
  }
  return -1;
}

/** Where the primary expression ending just before `at` starts, or -1 when there is none to read. */
function operandStart(sql: string, at: number): number {
  let end = at;
  while (end > 0 && /\s/.test(sql[end - 1]!)) end--;
  const last = sql[end - 1];
  if (last === undefined) return -1;
  if (last === ')') {
    const open = openingParen(sql, end - 1);
    // A function call (no space before its parenthesis): its name, dotted or quoted, belongs to the operand.
    return open < 0 ? -1 : nameChainStart(sql, open);
  }
  if (last === "'" || last === '"' || last === '`' || last === ']') {
    const start = quotedStart(sql, end - 1);
    if (start < 0) return -1;
    return last === "'" ? start : nameChainStart(sql, end);
  }
  if (isWordChar(last)) {
    const start = nameChainStart(sql, end);
    // A keyword is no operand (`select ::int` stays SQLite's error to report).
    return KEYWORDS.has(sql.slice(start, end).toLowerCase()) ? -1 : start;
  }
  return -1;
}

/** SQL keywords that can stand right before an expression, never an operand of `::` themselves. */
const KEYWORDS = new Set(['select', 'from', 'where', 'and', 'or', 'not', 'case', 'when', 'then', 'else', 'end', 'as', 'on', 'in', 'is', 'by', 'distinct', 'all', 'having', 'like', 'between', 'union', 'with', 'return', 'returning', 'values', 'set', 'limit', 'offset']);

/** Walking back from `end` over a name chain (`a.b."c"`, or a number such as 1.5): its first index (`end` when there is none). */
function nameChainStart(sql: string, end: number): number {
  let start = end;
  for (;;) {
    const c = sql[start - 1];
    if (isWordChar(c)) {
      while (isWordChar(sql[start - 1])) start--;
    } else if (c === '"' || c === '`' || c === ']') {
      const q = quotedStart(sql, start - 1);
      if (q < 0) break;
      start = q;
    } else break;
    if (sql[start - 1] !== '.') break;
    start--;
  }
  return start;
}

/** The index of the quote opening the literal or quoted name that closes at `close`, or -1. */
function quotedStart(sql: string, close: number): number {
  // Scan from the start so doubled quotes and comments read as SQLite reads them.
  for (let i = 0; i <= close; ) {
    const skipped = skipQuoted(sql, i);
    if (skipped !== i) {
      if (skipped === close + 1) return i;
      if (skipped > close) return -1;
      i = skipped;
    } else i++;
  }
  return -1;
}

/** The index of the `(` that the `)` at `close` closes, or -1. */
function openingParen(sql: string, close: number): number {
  for (let i = 0; i < close; ) {
    const skipped = skipQuoted(sql, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (sql[i] === '(' && closingParen(sql, i) === close) return i;
    i++;
  }
  return -1;
}

/** PostgreSQL's types of several words, by their first word. */
const MORE_WORDS: Readonly<Record<string, readonly RegExp[]>> = {
  double: [/^\s+precision\b/i],
  character: [/^\s+varying\b/i],
  bit: [/^\s+varying\b/i],
  timestamp: [/^\s+with(out)?\s+time\s+zone\b/i],
  time: [/^\s+with(out)?\s+time\s+zone\b/i],
};

/** The type written after `::` at `from`: its text (with its args and []) and where it ends. */
function typeAfter(sql: string, from: number): { text: string; end: number } | undefined {
  let i = from;
  while (/\s/.test(sql[i] ?? '')) i++;
  const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i));
  if (!word) return undefined;
  let end = i + word[0].length;
  for (const more of MORE_WORDS[word[0].toLowerCase()] ?? []) {
    const m = more.exec(sql.slice(end));
    if (m) end += m[0].length;
  }
  let j = end;
  while (/\s/.test(sql[j] ?? '')) j++;
  if (sql[j] === '(') {
    const close = closingParen(sql, j);
    if (close < 0) return undefined;
    end = close + 1;
  }
  while (sql.slice(end, end + 2) === '[]') end += 2;
  return { text: sql.slice(i, end), end };
}

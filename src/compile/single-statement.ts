import { ProjectError } from '../errors/project-error.js';

/**
 * Where the first statement of `sql` ends: the offset of its terminating
 * `;` (or sql.length), and the offset where a second statement starts, if
 * any. Quotes ('string', "identifier", `identifier`, [identifier]) and
 * comments (-- and /* *\/) are skipped, so a `;` inside them ends nothing;
 * after the terminator, whitespace, comments and more `;` are not a
 * statement.
 */
export function splitFirstStatement(sql: string): { end: number; second?: number } {
  // Only a `;` ends a statement: without one, quotes and comments need no reading (most models; a scan of
  // each model's text character by character was a measurable part of compiling 10,000 models).
  if (!sql.includes(';')) return { end: sql.length };
  let i = 0;
  const n = sql.length;
  const skipQuoted = (close: string, doubled: boolean): void => {
    i++;
    while (i < n) {
      if (sql[i] === close) {
        if (doubled && sql[i + 1] === close) {
          i += 2;
          continue;
        }
        i++;
        return;
      }
      i++;
    }
  };
  /** Skip a comment at i, if there is one; false when there is none. */
  const skipComment = (): boolean => {
    if (sql[i] === '-' && sql[i + 1] === '-') {
      const eol = sql.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
      return true;
    }
    if (sql[i] === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      return true;
    }
    return false;
  };
  while (i < n) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') skipQuoted(c, true);
    else if (c === '[') skipQuoted(']', false);
    else if (skipComment()) continue;
    else if (c === ';') break;
    else i++;
  }
  const end = i;
  while (i < n) {
    if (sql[i] === ';' || /\s/.test(sql[i]!)) i++;
    else if (!skipComment()) return { end, second: i };
  }
  return { end };
}

/** Who a piece of SQL belongs to, for the error. */
export interface StatementOwner {
  /** "model 'x'", "test 'y'". */
  readonly what: string;
  readonly file: string;
  /** The line the error points at, given the start of the second statement. */
  readonly lineOf: (start: string) => number | undefined;
  /** What the SQL must be, e.g. "a model is one select". */
  readonly rule: string;
  readonly hint?: string;
}

/**
 * A model's or a data test's rendered SQL must be exactly one statement: a
 * second one (`select 1; delete from raw_orders`) is refused before anything
 * runs. A trailing `;` (and comments after it) is allowed and cut off, since
 * the SQL is wrapped into other statements.
 */
export function requireOneStatement(sql: string, owner: StatementOwner): string {
  const { end, second } = splitFirstStatement(sql);
  if (second !== undefined) {
    const start = sql.slice(second).split('\n', 1)[0]!.trim();
    const shown = start.length > 60 ? `${start.slice(0, 57)}...` : start;
    throw new ProjectError(
      `${owner.what} contains more than one SQL statement: a second one starts at '${shown}'; ${owner.rule}, and none of it was run`,
      { location: { file: owner.file, line: owner.lineOf(start) }, hint: owner.hint ?? 'remove the `;` and what follows it' },
    );
  }
  return end < sql.length ? sql.slice(0, end).trimEnd() : sql;
}

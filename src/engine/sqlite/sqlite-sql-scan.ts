import { skipQuoted } from '../sql-quoted-text.js';

/** Scanning SQL text for the SQLite engine's rewrites: what is inside quotes or comments is never touched. */

export { skipQuoted };

export const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_$]/.test(c);

/** The index of the `)` closing the `(` at `open`, or -1. */
export function closingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; ) {
    const skipped = skipQuoted(sql, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')' && --depth === 0) return i;
    i++;
  }
  return -1;
}

/** Scanning SQL text for the SQLite engine's rewrites: what is inside quotes or comments is never touched. */

export const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_$]/.test(c);

/** The index just past a string literal, quoted name or comment starting at i, or i when none starts there. */
export function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"' || c === '`') {
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === c) {
        if (sql[j + 1] === c) j += 2;
        else return j + 1;
      } else j++;
    }
    return sql.length;
  }
  if (c === '[') {
    const end = sql.indexOf(']', i + 1);
    return end < 0 ? sql.length : end + 1;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const end = sql.indexOf('\n', i);
    return end < 0 ? sql.length : end;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  return i;
}

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

/**
 * The one scanner of SQL text's quoted parts, shared by the SQLite engine's rewrites
 * (sqlite/sqlite-sql-scan.ts) and the guard of mini-dbt's own tables (reserved-write-scan.ts):
 * SQLite's quoting ('text', "name", [name], `name`, -- and /* comments), which is PostgreSQL's too
 * but for its E'' strings, dollar quotes and nested comments (read by the guard itself).
 */

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

import { closingParen, isWordChar, skipQuoted } from './sqlite-sql-scan.js';

/**
 * `cast(x as date)` and `cast(x as timestamp)` as dbt users mean them, on
 * SQLite: there DATE and TIMESTAMP are NUMERIC affinity, so a cast turns
 * '2024-01-07' into 2024 without a word. dbt's packages (dbt_date writes
 * `cast(... as date)` throughout) and most projects mean a date, so the
 * SQLite engine reads `cast(x as date)` as `date(x)` and
 * `cast(x as timestamp)` (or `datetime`, `timestamp without time zone`) as
 * `datetime(x)`: ISO text, as dates are in SQLite. A cast to a decimal with
 * digits after the point (`numeric(28,6)`, `decimal(10,2)`: dbt's
 * type_numeric()) is read as `cast(x as real)`: SQLite's NUMERIC stores a
 * whole value as an integer, so `sum(n) / cast(count(*) as numeric(28,6))`
 * would divide integers (9 / 10 = 0; PostgreSQL: 0.9). Any other cast (a bare
 * `numeric`, `numeric(10)` or `numeric(10,0)` too), and text in string
 * literals, quoted names and comments, is left as written.
 */
const QUICK = /\bas\s+(date|datetime|timestamp|numeric|decimal)\b/i;
const DATE_TYPE = /^date$/i;
const TIMESTAMP_TYPE = /^(timestamp|datetime)(\s+without\s+time\s+zone)?$/i;
const FRACTIONAL_DECIMAL_TYPE = /^(numeric|decimal)\s*\(\s*\d+\s*,\s*0*[1-9]\d*\s*\)$/i;

export function rewriteDateCasts(sql: string): string {
  return QUICK.test(sql) ? rewrite(sql) : sql;
}

/** The index of the last top-level ` as ` keyword inside a cast's parentheses (open+1 .. close), or -1. */
function lastTopLevelAs(sql: string, from: number, to: number): number {
  let depth = 0;
  let found = -1;
  for (let i = from; i < to; ) {
    const skipped = skipQuoted(sql, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = sql[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0 && (c === 'a' || c === 'A') && (sql[i + 1] === 's' || sql[i + 1] === 'S') && !isWordChar(sql[i - 1]) && !isWordChar(sql[i + 2])) found = i;
    i++;
  }
  return found;
}

function rewrite(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const skipped = skipQuoted(sql, i);
    if (skipped !== i) {
      out += sql.slice(i, skipped);
      i = skipped;
      continue;
    }
    if (/^cast\b/i.test(sql.slice(i, i + 5)) && !isWordChar(sql[i - 1]) && !isWordChar(sql[i + 4])) {
      let open = i + 4;
      while (/\s/.test(sql[open] ?? '')) open++;
      const close = sql[open] === '(' ? closingParen(sql, open) : -1;
      const as = close < 0 ? -1 : lastTopLevelAs(sql, open + 1, close);
      if (as >= 0) {
        const type = sql.slice(as + 2, close).trim();
        const expr = rewrite(sql.slice(open + 1, as).trim());
        const fn = DATE_TYPE.test(type) ? 'date' : TIMESTAMP_TYPE.test(type) ? 'datetime' : undefined;
        if (fn) out += `${fn}(${expr})`;
        else out += `${sql.slice(i, open + 1)}${expr} as ${FRACTIONAL_DECIMAL_TYPE.test(type) ? 'real' : type})`;
        i = close + 1;
        continue;
      }
    }
    out += sql[i];
    i++;
  }
  return out;
}

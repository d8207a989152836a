import { rewriteDateCasts } from './sqlite-date-casts.js';
import { rewriteDoubleColonCasts } from './sqlite-double-colon-casts.js';

/** Every statement's text as SQLite gets it: `x::type` as `cast(x as type)`, then date and timestamp casts as date() and datetime(). */
export function rewriteForSqlite(sql: string): string {
  return rewriteDateCasts(rewriteDoubleColonCasts(sql));
}

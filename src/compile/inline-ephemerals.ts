/** An ephemeral model's SQL, to be inlined as `<name> as (<sql>)`. */
export interface EphemeralCte {
  readonly name: string;
  readonly sql: string;
}

/** dbt's name for an ephemeral model's CTE. */
export function ephemeralCteName(identifier: string): string {
  return `__dbt__cte__${identifier}`;
}

const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
const WITH = /^with\b\s*(?:recursive\b\s*)?/i;

/**
 * Put the CTEs in front of a model's SQL, dependencies first: merged into
 * its leading WITH (after `WITH` / `WITH RECURSIVE`) when it has one,
 * else as a new WITH. Comments before the SQL stay in front.
 */
export function inlineEphemerals(sql: string, ctes: readonly EphemeralCte[]): string {
  if (ctes.length === 0) return sql;
  const defs = ctes.map((c) => `${c.name} as (\n${c.sql.trim().replace(/;\s*$/, '')}\n)`).join(',\n');
  const lead = LEADING.exec(sql)?.[0] ?? '';
  const rest = sql.slice(lead.length);
  const keyword = WITH.exec(rest)?.[0];
  if (keyword) return `${lead}${keyword.trimEnd()} ${defs},\n${rest.slice(keyword.length)}`;
  return `${lead}with ${defs}\n${rest}`;
}

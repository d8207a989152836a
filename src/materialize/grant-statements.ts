import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import type { Grants } from '../config/grants-config.js';
import type { PlannedStatement } from './planned-statement.js';

/**
 * dbt-postgres's get_show_grant_sql: the grants on a relation that its owner (the current role) gave
 * others; the owner's own privileges are not listed.
 */
export function showGrantsSql(schema: string, alias: string): string {
  const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
  return `select grantee, privilege_type from information_schema.role_table_grants where grantor = current_role and grantee != current_role and table_schema = ${literal(schema)} and table_name = ${literal(alias)}`;
}

/** The relation's current grants, as dbt's standardize_grants_dict reads them (privilege -> grantees). */
export function currentGrants(db: Warehouse, schema: string, alias: string): Grants {
  const out: Record<string, string[]> = {};
  for (const row of db.all<{ grantee: string; privilege_type: string }>(showGrantsSql(schema, alias))) {
    (out[row.privilege_type] ??= []).push(row.grantee);
  }
  return out;
}

/**
 * dbt's diff_of_two_dicts: what `a` lists that `b` does not, privileges and grantees compared
 * case-insensitively; a privilege `b` lacks entirely is kept whole.
 */
export function grantsDifference(a: Grants, b: Grants): Grants {
  const lowered = new Map(Object.entries(b).map(([k, v]) => [k.toLowerCase(), v.map((g) => g.toLowerCase())]));
  const out: Record<string, string[]> = {};
  for (const [privilege, grantees] of Object.entries(a)) {
    const have = lowered.get(privilege.toLowerCase());
    if (have === undefined) {
      out[privilege] = [...grantees];
      continue;
    }
    const missing = grantees.filter((g) => !have.includes(g.toLowerCase()));
    if (missing.length > 0) out[privilege] = missing;
  }
  return out;
}

/** dbt's quote_grantees: a grantee holding '@', '-' or '.' is quoted, the others are written as given. */
const grantee = (name: string) => (/[@.-]/.test(name) ? quoteIdentifier(name) : name);

export interface GrantInput {
  readonly schema: string;
  readonly alias: string;
  /** The node's grants (readGrants): undefined or none, and nothing is done. */
  readonly grants: Grants | undefined;
  /**
   * The grants the relation holds now, when it keeps them through this build (dbt's should_revoke: an
   * incremental run, a snapshot on an existing table): what the config no longer lists is revoked first.
   * Undefined for a relation this build creates anew (it starts with no grants): only grants are issued.
   */
  readonly current?: Grants;
}

/**
 * dbt's apply_grants on PostgreSQL, as statements run inside the publish transaction after the
 * transactional post-hooks: `revoke <privilege> on <relation> from <grantees>` for what the relation
 * holds and the config no longer lists, then `grant <privilege> on <relation> to <grantees>` for what it
 * lacks, one statement per privilege. Grants already in place issue nothing. SQLite has no privileges:
 * none (dbt-sqlite's materializations never call apply_grants).
 */
export function grantStatements(input: GrantInput): PlannedStatement[] {
  if (dialect.name !== 'postgres' || input.grants === undefined) return [];
  const relation = qualifiedName(input.schema, input.alias);
  const revoke = input.current ? grantsDifference(input.current, input.grants) : {};
  const grant = input.current ? grantsDifference(input.grants, input.current) : input.grants;
  const dcl = (verb: 'grant' | 'revoke', set: Grants): PlannedStatement[] =>
    Object.entries(set).filter(([, grantees]) => grantees.length > 0).map(([privilege, grantees]) => ({
      kind: 'exec', role: 'grant',
      sql: `${verb} ${privilege} on ${relation} ${verb === 'grant' ? 'to' : 'from'} ${grantees.map(grantee).join(', ')}`,
    }));
  return [...dcl('revoke', revoke), ...dcl('grant', grant)];
}

/** Run a node's grant statements on `db` (seeds and snapshots, which publish outside a plan); returns their SQL. */
export function applyGrants(db: Warehouse, input: GrantInput): string[] {
  const statements = grantStatements(input);
  const sql = statements.flatMap((s) => (s.kind === 'exec' ? [s.sql] : []));
  for (const text of sql) db.exec(text);
  return sql;
}

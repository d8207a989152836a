import type { Target } from '../project/target.js';

/**
 * The `database` dbt's artifacts (manifest.json, catalog.json) give a
 * relation: the server database's name on PostgreSQL (dbt-postgres's
 * `dbname`, its relation names qualified by it), `main` on SQLite, whose
 * relation names are only schema-qualified (dbt-sqlite's).
 */
export function relationDatabase(target: Target): { readonly name: string; readonly qualifies: boolean } {
  return target.postgres ? { name: target.postgres.dbname, qualifies: true } : { name: 'main', qualifies: false };
}

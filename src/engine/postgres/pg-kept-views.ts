import { PgError, type PgResult } from './pg-sync-client.js';

/** What reading and putting back views needs of a connection: a query, a posted statement, whether a transaction is open. */
export interface ViewKeeperConnection {
  query(sql: string, params: readonly unknown[]): PgResult;
  send(sql: string): void;
  readonly inTransaction: boolean;
}

export interface ViewDefinition {
  readonly schema: string;
  readonly name: string;
  readonly definition: string;
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * The views of the user's schemas, with their definitions. pg_get_viewdef opens each view the
 * catalog scan saw: one that another session dropped meanwhile (a node on another thread
 * replacing its view, --threads) fails the read with "could not open relation with OID". The
 * read is then made again (after a rollback to a savepoint taken before it, in a transaction).
 */
export function readViewDefinitions(db: ViewKeeperConnection): ViewDefinition[] {
  const sql = `select n.nspname as schema, c.relname as name, pg_get_viewdef(c.oid) as definition
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'v' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
     order by c.oid`;
  for (let attempt = 1; ; attempt++) {
    const marked = db.inTransaction;
    // Posted: no round trip of its own (the read's answers it).
    if (marked) db.send('savepoint mini_dbt_views');
    try {
      const rows = db.query(sql, []).rows as unknown as ViewDefinition[];
      if (marked) db.send('release savepoint mini_dbt_views');
      return rows;
    } catch (err) {
      if (!(err instanceof PgError && /could not open relation with OID|cache lookup failed for relation/.test(err.message)) || attempt >= 5) throw err;
      if (marked) db.query('rollback to savepoint mini_dbt_views', []);
    }
  }
}

/** Create again, by name, every view of `views` that no relation holds the name of now (one dropped on purpose and replaced stays replaced). */
export function putViewsBack(db: ViewKeeperConnection, views: readonly ViewDefinition[]): void {
  if (views.length === 0) return;
  const present = new Set(
    (db.query(`select n.nspname || '.' || c.relname as k from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('v', 'r', 'p', 'm', 'f')`, []).rows as unknown as { k: string }[]).map((r) => r.k),
  );
  for (const view of views) {
    if (present.has(`${view.schema}.${view.name}`)) continue;
    db.query(`create view ${quoteName(view.schema)}.${quoteName(view.name)} as ${view.definition.replace(/;\s*$/, '')}`, []);
  }
}

import type { Warehouse } from '../../engine/open-warehouse.js';
import { quoteIdentifier } from '../../engine/quote-identifier.js';
import { RESERVED_PREFIX } from '../../project/reserved-names.js';
import { Relation } from '../relation.js';

/** Where a relation lives: its schema and name. */
export interface Located {
  readonly schema: string;
  readonly identifier: string;
}

const unquote = (part: string): string => part.replace(/^"|"$/g, '').replace(/""/g, '"');

/** Where a relation (a Relation, or its rendered text `"schema"."name"` / `"name"`) lives. */
export function locate(relation: unknown, defaultSchema = 'main'): Located {
  if (relation instanceof Relation) return { schema: relation.schema, identifier: relation.identifier };
  const text = String(relation);
  const qualified = /^("(?:[^"]|"")*"|[^".]+)\.("(?:[^"]|"")*"|[^".]+)$/.exec(text);
  return qualified ? { schema: unquote(qualified[1]!), identifier: unquote(qualified[2]!) } : { schema: defaultSchema, identifier: unquote(text) };
}

/** dbt-sqlite's list_schemas: the attached databases (PRAGMA database_list), main first. */
export function listSchemas(db: Warehouse | undefined): string[] {
  return db ? db.attachedSchemas() : [];
}

/** Whether `schema` is attached (SQLite compares schema names case-insensitively). */
export function schemaExists(db: Warehouse | undefined, schema: string): boolean {
  return listSchemas(db).some((s) => s.toLowerCase() === schema.toLowerCase());
}

/** mini-dbt's ledger (RESERVED_PREFIX): no project's relations. */
const LEDGER = `'${RESERVED_PREFIX.replace(/_/g, '\\_')}%' escape '\\'`;

/**
 * Each adapter's list_relations_without_caching query (name, 'table' | 'view'), as dbt's adapters each
 * write their own: dbt-sqlite reads `<schema>.sqlite_master` (SQLite's own tables left out), dbt-postgres
 * the catalog (tables, partitioned tables, views and materialized views of the schema).
 */
const LIST_RELATIONS: Readonly<Record<string, (schema: string) => { sql: string; params: string[] }>> = {
  sqlite: (schema) => ({
    sql: `select name, type from ${quoteIdentifier(schema)}.sqlite_master where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\' and name not like ${LEDGER} order by name`,
    params: [],
  }),
  postgres: (schema) => ({
    sql: `select c.relname as name, case when c.relkind in ('v', 'm') then 'view' else 'table' end as type
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ? and c.relkind in ('r', 'p', 'v', 'm') and c.relname not like ${LEDGER} order by c.relname`,
    params: [schema],
  }),
};

/**
 * The tables and views of one schema, as relations (mini-dbt's ledger is left out). `exists`: whether
 * the schema is there (the caller knows the target's schema is, where the connection lists it as `main`).
 */
export function relationsInSchema(db: Warehouse | undefined, schema: string, engineName: string, exists = schemaExists(db, schema)): Relation[] {
  if (!db || !exists) return [];
  const { sql, params } = (LIST_RELATIONS[engineName] ?? LIST_RELATIONS.sqlite!)(schema);
  const rows = db.prepare(sql).rows(...params) as unknown[][];
  return rows.map((row) => new Relation(String(row[0]), row[1] === 'view' ? 'view' : 'table', undefined, schema));
}

/** What follows each adapter's drop: dbt-postgres drops what depends on the relation too (cascade); SQLite has no cascade. */
const DROP_CASCADE: Readonly<Record<string, string>> = { postgres: ' cascade' };

/** adapter.drop_relation: `drop table|view if exists`, as its kind in the warehouse says (`exists`: whether its schema is there). */
export function dropRelation(db: Warehouse | undefined, at: Located, exists = schemaExists(db, at.schema), engineName = 'sqlite'): void {
  if (!db || !exists) return;
  const kind = db.relationKind(at.identifier, at.schema);
  if (kind) db.exec(`drop ${kind} if exists ${quoteIdentifier(at.schema)}.${quoteIdentifier(at.identifier)}${DROP_CASCADE[engineName] ?? ''}`);
}

/**
 * adapter.drop_schema. dbt-sqlite cannot detach a schema (nor ever `main`): it drops every relation in
 * it and leaves it attached. dbt-postgres drops the schema, cascading; where the schema holds
 * mini-dbt's ledger (the target's schema) its relations are dropped one by one instead and the ledger
 * stays (the run that is dropping them records itself there). The ledger is kept on SQLite too.
 */
export function dropSchema(db: Warehouse | undefined, schema: string, exists: boolean, engineName: string): void {
  if (!db || !exists) return;
  const relations = relationsInSchema(db, schema, engineName, exists);
  if (engineName === 'postgres' && !holdsLedger(db, schema)) {
    db.exec(`drop schema if exists ${quoteIdentifier(schema)} cascade`);
    return;
  }
  // Views first: a table's drop would otherwise take them along (PostgreSQL) or leave them broken (SQLite).
  for (const r of [...relations.filter((x) => x.type === 'view'), ...relations.filter((x) => x.type !== 'view')]) {
    dropRelation(db, { schema, identifier: r.identifier }, true, engineName);
  }
}

/** Whether a PostgreSQL schema holds mini-dbt's ledger tables. */
function holdsLedger(db: Warehouse, schema: string): boolean {
  return Number(db.prepare(`select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and c.relname like ${LEDGER}`).value(schema)) > 0;
}

/** Each adapter's rename of a view: PostgreSQL renames it in place (dbt-postgres's alter view ... rename to). */
const RENAME_VIEW: Readonly<Record<string, (db: Warehouse, source: string, to: Located) => void>> = {
  postgres: (db, source, to) => db.exec(`alter view ${source} rename to ${quoteIdentifier(to.identifier)}`),
};

/**
 * adapter.rename_relation: a table by `alter table ... rename to` (renamed
 * within its schema); a view by the adapter's own rename, else (SQLite) dropped
 * and created again under the new name from its own `select`, as dbt-sqlite does.
 */
export function renameRelation(db: Warehouse | undefined, from: Located, to: Located, engineName = 'sqlite'): void {
  if (!db) return;
  const kind = db.relationKind(from.identifier, from.schema);
  const source = `${quoteIdentifier(from.schema)}.${quoteIdentifier(from.identifier)}`;
  if (kind === 'table') {
    db.exec(`alter table ${source} rename to ${quoteIdentifier(to.identifier)}`);
  } else if (kind === 'view' && RENAME_VIEW[engineName]) {
    RENAME_VIEW[engineName]!(db, source, to);
  } else if (kind === 'view') {
    const row = db.prepare(`select sql from ${quoteIdentifier(from.schema)}.sqlite_master where type = 'view' and name = ?`).rows(from.identifier) as unknown[][];
    const body = /\bas\b([\s\S]*)$/i.exec(String(row[0]?.[0] ?? ''))?.[1];
    if (body === undefined) throw new Error(`rename_relation: cannot read the definition of view ${source}`);
    db.exec(`drop view ${source}`);
    db.exec(`create view ${quoteIdentifier(to.schema)}.${quoteIdentifier(to.identifier)} as${body}`);
  } else {
    throw new Error(`rename_relation: ${source} does not exist`);
  }
}

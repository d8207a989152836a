import type { Connection } from '../connection.js';

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const quoteText = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/**
 * A copy of schema `from` into a new schema `to` of the same database (a
 * replay's scratch warehouse): every table with its rows, indexes, defaults
 * and own sequences, then every view, created so that it reads the copied
 * tables, never the originals.
 */
export function copySchema(db: Connection, from: string, to: string): void {
  const searchPath = String(db.value('show search_path'));
  db.exec(`create schema ${quoteName(to)}`);
  try {
    // Read with `from` first on the search path, so the views' text names its tables unqualified...
    db.exec(`set search_path = ${quoteName(from)}, public`);
    const tables = db.all<{ name: string; kind: string; definition: string | null }>(`select c.relname as name, c.relkind as kind, pg_get_viewdef(c.oid) as definition from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and c.relkind in ('r', 'v', 'p') order by c.oid`, from);
    for (const t of tables) {
      if (t.kind === 'v') continue;
      const copy = `${quoteName(to)}.${quoteName(t.name)}`;
      db.exec(`create table ${copy} (like ${quoteName(from)}.${quoteName(t.name)} including all)`);
      db.exec(`insert into ${copy} select * from ${quoteName(from)}.${quoteName(t.name)}`);
      ownSequences(db, to, t.name);
    }
    // ...and created with the copy first: they read the copied tables, never the originals.
    db.exec(`set search_path = ${quoteName(to)}, public`);
    for (const t of tables) {
      if (t.kind !== 'v' || t.definition === null) continue;
      db.exec(`create view ${quoteName(to)}.${quoteName(t.name)} as ${t.definition.replace(/;\s*$/, '')}`);
    }
  } finally {
    db.exec(`set search_path = ${searchPath}`);
  }
}

/** A copied table's serial columns draw from sequences of the copy's own (LIKE keeps the original's nextval default). */
function ownSequences(db: Connection, schema: string, table: string): void {
  const copy = `${quoteName(schema)}.${quoteName(table)}`;
  const serials = db.all<{ name: string }>(
    `select a.attname as name from pg_attrdef d join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
     where d.adrelid = cast(? as regclass) and pg_get_expr(d.adbin, d.adrelid) like 'nextval(%'`,
    copy,
  );
  for (const { name } of serials) {
    const sequence = `${quoteName(schema)}.${quoteName(`${table}_${name}_seq`.slice(0, 63))}`;
    db.exec(`create sequence ${sequence} owned by ${copy}.${quoteName(name)}`);
    db.exec(`select setval(${quoteText(sequence)}, coalesce(max(${quoteName(name)}), 0) + 1, false) from ${copy}`);
    db.exec(`alter table ${copy} alter column ${quoteName(name)} set default nextval(${quoteText(sequence)})`);
  }
}

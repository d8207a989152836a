import type { Dialect } from '../dialect.js';

const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** SQLite's dialect of what the tool writes itself. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  quoteIdentifier,
  unquotedName: (name) => name,
  subqueryAlias: () => '',
  quoteLiteral: (value) => `'${value.replace(/'/g, "''")}'`,
  // dbt-sqlite's convert_*_type for agate's dates, datetimes and booleans (its impl.py); numbers keep mini-dbt's INTEGER and REAL.
  types: { integer: 'INTEGER', real: 'REAL', text: 'TEXT', date: 'TEXT', timestamp: 'TEXT', boolean: 'INT' },
  seedValues: 'python',
  /** SQLite's type affinity rules (section 3.1 of "Datatypes In SQLite"), in their order. */
  typeAffinity: (declared) => {
    const t = declared.toUpperCase();
    if (t.includes('INT')) return 'INTEGER';
    if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'TEXT';
    if (t.trim() === '' || t.includes('BLOB')) return 'BLOB';
    if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'REAL';
    return 'NUMERIC';
  },
  /** SQLite's default SQLITE_MAX_VARIABLE_NUMBER since 3.32. */
  maxBindParameters: 32766,
  castText: (expr) => `cast(${expr} as text)`,
  lastInsertedId: (table) => `(select max(id) from ${quoteIdentifier(table)})`,
  typed: (value) => value,
  dateOf: (expr) => `date(${expr})`,
  dayOrText: (expr) => `coalesce(date(${expr}), cast(${expr} as text))`,
  dayNumber: (dayExpr) => `julianday(${dayExpr})`,
  hourOfDay: (expr) => `coalesce(cast(strftime('%H', ${expr}) as integer), 0)`,
  isNumber: (expr) => `typeof(${expr}) in ('integer', 'real')`,
  sumOrZero: (expr) => `total(${expr})`,
  nonText: (expr) => `${expr} < '' or ${expr} >= x''`,
  jsonTexts: (param, alias) => `json_each(${param}) as ${alias}`,
  createTableAs: (relation, select, options) => `create ${options?.temp ? 'temp ' : ''}table ${relation} as\n${select}`,
  createView: (relation, select) => `create view ${relation} as\n${select}`,
  dropRelation: (kind, relation, options) => `drop ${kind} ${options?.ifExists ? 'if exists ' : ''}${relation}`,
  renameTable: (from, to) => `alter table ${from} rename to ${to}`,
  tempRelation: (name) => `temp.${quoteIdentifier(name)}`,
  createTable: (relation, columnDefinitions) => `create table ${relation} (${columnDefinitions})`,
  createEmptyTableLike: (relation, source) => `create table ${relation} as select * from ${source} where 0`,
  createIndex: ({ name, table, columns, unique, ifNotExists }) => `create ${unique ? 'unique ' : ''}index ${ifNotExists ? 'if not exists ' : ''}${name} on ${table} (${columns})`,
  dropIndex: (name, options) => `drop index ${options?.ifExists ? 'if exists ' : ''}${name}`,
  addColumn: (table, column, type) => `alter table ${table} add column ${column}${type ? ` ${type}` : ''}`,
  dropColumn: (table, column) => `alter table ${table} drop column ${column}`,
  // SQLite has no MERGE: the match is kept by rowid, so the update and the insert see the same pairs
  // (a predicate on a column the update changes cannot turn a matched row into an inserted one).
  merge: ({ target, source, matchTable, keys, columns, update, predicates }) => {
    const on = [...keys.map((k) => `DBT_INTERNAL_SOURCE.${k} = DBT_INTERNAL_DEST.${k}`), ...predicates.map((p) => `(${p})`)].join('\n  and ');
    const cols = columns.join(', ');
    return {
      kind: 'steps',
      match: `create temp table ${quoteIdentifier(matchTable)} as\nselect DBT_INTERNAL_DEST.rowid as dest_row, DBT_INTERNAL_SOURCE.rowid as source_row\nfrom ${target} as DBT_INTERNAL_DEST join ${source} as DBT_INTERNAL_SOURCE\n  on ${on}`,
      doubleMatch: `select count(*) from (select dest_row from temp.${quoteIdentifier(matchTable)} group by dest_row having count(*) > 1)`,
      ...(update.length > 0
        ? {
          update: `update ${target} as DBT_INTERNAL_DEST set\n  ${update.map((c) => `${quoteIdentifier(c)} = DBT_INTERNAL_SOURCE.${quoteIdentifier(c)}`).join(',\n  ')}\nfrom temp.${quoteIdentifier(matchTable)} as m join ${source} as DBT_INTERNAL_SOURCE on DBT_INTERNAL_SOURCE.rowid = m.source_row\nwhere DBT_INTERNAL_DEST.rowid = m.dest_row`,
        }
        : {}),
      insert: `insert into ${target} (${cols})\nselect ${cols} from ${source}\nwhere rowid not in (select source_row from temp.${quoteIdentifier(matchTable)})`,
    };
  },
};

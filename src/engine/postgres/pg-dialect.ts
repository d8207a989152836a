import type { Dialect, MergeSql } from '../dialect.js';

const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** A YYYY-MM-DD start of a value's text: dates, timestamps and ISO text alike (PostgreSQL prints dates ISO). */
const dayOfText = (expr: string): string => `case when cast(${expr} as text) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then left(cast(${expr} as text), 10) end`;

/** `"schema"."name"` split into its schema and name; a bare name has no schema. */
function splitQualified(name: string): { schema?: string; bare: string } {
  const m = /^("(?:[^"]|"")*")\.("(?:[^"]|"")*")$/.exec(name);
  return m ? { schema: m[1]!, bare: m[2]! } : { bare: name };
}

/** PostgreSQL's dialect of what the tool writes itself. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  quoteIdentifier,
  unquotedName: (name) => name.toLowerCase(),
  subqueryAlias: (namespace, table) => ` _dbt_${namespace}_subq_${table}`,
  quoteLiteral,
  // dbt-postgres's types for agate's (SQLAdapter.convert_*_type): a Number column is integer, or float8
  // when a value has decimals; bigint only where integer would refuse a value (dbt-postgres fails the load).
  types: {
    integer: 'integer',
    bigInteger: 'bigint',
    real: 'float8',
    text: 'text',
    empty: 'integer',
    date: 'date',
    timestamp: 'timestamp without time zone',
    boolean: 'boolean',
  },
  seedValues: 'text',
  /** The family of a PostgreSQL type name, in SQLite's words (what the tool compares and binds by). */
  typeAffinity: (declared) => {
    const t = declared.toLowerCase().trim();
    if (/^(smallint|integer|bigint|int[248]?|serial|bigserial|smallserial)\b/.test(t)) return 'INTEGER';
    if (/^(real|double precision|float[48]?)\b/.test(t)) return 'REAL';
    if (/^(numeric|decimal)\b/.test(t)) return 'NUMERIC';
    if (/^(text|character|char|varchar|character varying|name|citext|uuid)\b/.test(t)) return 'TEXT';
    if (t === '' || t === 'bytea') return 'BLOB';
    // dates, times, booleans, json...: compared as their own type, bound as text.
    return 'NUMERIC';
  },
  maxBindParameters: 65535,
  castText: (expr) => `cast(${expr} as text)`,
  lastInsertedId: (table) => `currval(pg_get_serial_sequence(${quoteLiteral(table)}, 'id'))`,
  typed: (value, type) => (type.trim() === '' ? value : `cast(${value} as ${type})`),
  dateOf: dayOfText,
  // A text of at most 10 bytes is its own day or text either way: the pattern (a regular expression, about a
  // microsecond a row) is tested only on longer ones (timestamps), which keeps a range count over an index cheap.
  dayOrText: (expr) => `case when octet_length(cast(${expr} as text)) <= 10 then cast(${expr} as text) else coalesce(${dayOfText(expr)}, cast(${expr} as text)) end`,
  dayNumber: (dayExpr) => `(cast(${dayExpr} as date) - date '2000-01-01')`,
  hourOfDay: (expr) => `case when cast(${expr} as text) ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}' then cast(substr(cast(${expr} as text), 12, 2) as integer) else 0 end`,
  isNumber: (expr) => `pg_typeof(${expr}) in ('smallint'::regtype, 'integer'::regtype, 'bigint'::regtype, 'numeric'::regtype, 'real'::regtype, 'double precision'::regtype)`,
  // Cast before summing: `expr` may be a text column's CASE that isNumber makes NULL at run time (sum(text) does not exist).
  sumOrZero: (expr) => `coalesce(sum(cast(${expr} as double precision)), 0.0)`,
  // Every column has one type: a text column holds only text, and a range over another type compares as that type.
  nonText: () => 'false',
  jsonTexts: (param, alias) => `json_array_elements_text(cast(${param} as json)) as ${alias}(value)`,
  createTableAs: (relation, select, options) => `create ${options?.temp ? 'temp ' : ''}table ${relation} as\n${select}`,
  createView: (relation, select) => `create view ${relation} as\n${select}`,
  dropRelation: (kind, relation, options) => `drop ${kind} ${options?.ifExists ? 'if exists ' : ''}${relation}`,
  renameTable: (from, to) => `alter table ${from} rename to ${to}`,
  tempRelation: (name) => `pg_temp.${quoteIdentifier(name)}`,
  createTable: (relation, columnDefinitions) => `create table ${relation} (${columnDefinitions})`,
  createEmptyTableLike: (relation, source) => `create table ${relation} as select * from ${source} where false`,
  // An index lives in its table's schema, named bare: the tool's `"schema"."index" on "table"` (SQLite's form) turns around.
  createIndex: ({ name, table, columns, unique, ifNotExists }) => {
    const { schema, bare } = splitQualified(name);
    const on = schema && !table.includes('.') ? `${schema}.${table}` : table;
    return `create ${unique ? 'unique ' : ''}index ${ifNotExists ? 'if not exists ' : ''}${bare} on ${on} (${columns})`;
  },
  dropIndex: (name, options) => `drop index ${options?.ifExists ? 'if exists ' : ''}${name}`,
  addColumn: (table, column, type) => `alter table ${table} add column ${column} ${type || 'text'}`,
  dropColumn: (table, column) => `alter table ${table} drop column ${column}`,
  merge: (options) => postgresMerge(options, true),
};

/**
 * dbt's merge on PostgreSQL: MERGE (PostgreSQL 15 and later), as
 * dbt-postgres writes it; an existing row matched twice fails it with
 * cardinality_violation. Without `native` (an older server), and when
 * there is no column to update (MERGE's DO NOTHING would let a double
 * match pass, where the tool refuses it on every engine), the same steps
 * as SQLite's, with the row's physical address (ctid) for SQLite's rowid.
 */
export function postgresMerge(options: Parameters<Dialect['merge']>[0], native: boolean): MergeSql {
  const { target, source, matchTable, keys, columns, update, predicates } = options;
  const on = [...keys.map((k) => `DBT_INTERNAL_SOURCE.${k} = DBT_INTERNAL_DEST.${k}`), ...predicates.map((p) => `(${p})`)].join('\n  and ');
  const cols = columns.join(', ');
  if (native && update.length > 0) {
    return {
      kind: 'native',
      sql: `merge into ${target} as DBT_INTERNAL_DEST\nusing ${source} as DBT_INTERNAL_SOURCE\non ${on}\n`
        + `when matched then update set\n  ${update.map((c) => `${quoteIdentifier(c)} = DBT_INTERNAL_SOURCE.${quoteIdentifier(c)}`).join(',\n  ')}\n`
        + `when not matched then insert (${cols})\nvalues (${columns.map((c) => `DBT_INTERNAL_SOURCE.${c}`).join(', ')})`,
    };
  }
  const match = `pg_temp.${quoteIdentifier(matchTable)}`;
  return {
    kind: 'steps',
    match: `create temp table ${quoteIdentifier(matchTable)} as\nselect DBT_INTERNAL_DEST.ctid as dest_row, DBT_INTERNAL_SOURCE.ctid as source_row\nfrom ${target} as DBT_INTERNAL_DEST join ${source} as DBT_INTERNAL_SOURCE\n  on ${on}`,
    doubleMatch: `select count(*) from (select dest_row from ${match} group by dest_row having count(*) > 1) as doubled`,
    ...(update.length > 0
      ? {
        update: `update ${target} as DBT_INTERNAL_DEST set\n  ${update.map((c) => `${quoteIdentifier(c)} = DBT_INTERNAL_SOURCE.${quoteIdentifier(c)}`).join(',\n  ')}\nfrom ${match} as m join ${source} as DBT_INTERNAL_SOURCE on DBT_INTERNAL_SOURCE.ctid = m.source_row\nwhere DBT_INTERNAL_DEST.ctid = m.dest_row`,
      }
      : {}),
    insert: `insert into ${target} (${cols})\nselect ${cols} from ${source}\nwhere ctid not in (select source_row from ${match})`,
  };
}

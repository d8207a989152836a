import type { Dialect } from '../dialect.js';

const quoteIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** SQLite's dialect of what the tool writes itself. */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  quoteIdentifier,
  quoteLiteral: (value) => `'${value.replace(/'/g, "''")}'`,
  types: { integer: 'INTEGER', real: 'REAL', text: 'TEXT' },
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
  dateOf: (expr) => `date(${expr})`,
  dayOrText: (expr) => `coalesce(date(${expr}), cast(${expr} as text))`,
  dayNumber: (dayExpr) => `julianday(${dayExpr})`,
  isNumber: (expr) => `typeof(${expr}) in ('integer', 'real')`,
  sumOrZero: (expr) => `total(${expr})`,
  nonText: (expr) => `${expr} < '' or ${expr} >= x''`,
  createTableAs: (relation, select, options) => `create ${options?.temp ? 'temp ' : ''}table ${relation} as\n${select}`,
  createView: (relation, select) => `create view ${relation} as\n${select}`,
  dropRelation: (kind, relation, options) => `drop ${kind} ${options?.ifExists ? 'if exists ' : ''}${relation}`,
  renameTable: (from, to) => `alter table ${from} rename to ${to}`,
  tempRelation: (name) => `temp.${quoteIdentifier(name)}`,
  createTable: (relation, columnDefinitions) => `create table ${relation} (${columnDefinitions})`,
  createEmptyTableLike: (relation, source) => `create table ${relation} as select * from ${source} where 0`,
  createIndex: ({ name, table, columns, unique, ifNotExists }) => `create ${unique ? 'unique ' : ''}index ${ifNotExists ? 'if not exists ' : ''}${name} on ${table} (${columns})`,
  dropIndex: (name) => `drop index ${name}`,
  addColumn: (table, column, type) => `alter table ${table} add column ${column}${type ? ` ${type}` : ''}`,
  dropColumn: (table, column) => `alter table ${table} drop column ${column}`,
  upsert: ({ target, targetAlias, columns, source, keys, update, predicates }) => {
    const action = update.length === 0
      ? 'do nothing'
      : `do update set\n  ${update.map((c) => `${quoteIdentifier(c)} = excluded.${quoteIdentifier(c)}`).join(',\n  ')}${predicates.length > 0 ? `\n  where ${predicates.map((p) => `(${p})`).join('\n    and ')}` : ''}`;
    // `where true` keeps SQLite's parser from reading ON CONFLICT as a join constraint of the SELECT.
    return `insert into ${target} as ${targetAlias} (${columns})\nselect ${columns} from ${source} where true\non conflict (${keys}) ${action}`;
  },
  upsertNewRow: 'excluded',
};

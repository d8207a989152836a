import { dialect } from '../engine/current-engine.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import { newRowsTable } from './staging-names.js';
import type { ConstraintDefinition } from '../project/constraint-definition.js';
import { constraintSupport, constraintWarning } from './constraint-support.js';
import type { PlannedStatement } from './planned-statement.js';

/** A constraint whose foreign key parent (`to: ref(...)`) the plan resolved to a relation. */
export interface ResolvedConstraint extends ConstraintDefinition {
  /** The parent relation as the DDL names it. */
  readonly toRelation?: string;
}

export interface ContractColumn {
  readonly name: string;
  readonly quote: boolean;
  readonly dataType: string;
  readonly constraints: readonly ResolvedConstraint[];
}

/** An enforced contract's columns (yml order) and model-level constraints. */
export interface ContractSpec {
  readonly columns: readonly ContractColumn[];
  readonly constraints: readonly ResolvedConstraint[];
}

/** A column's name as the DDL writes it: quoted with `quote: true`, else as written (dbt's get_column_names). */
export const contractColumnName = (c: Pick<ContractColumn, 'name' | 'quote'>): string => (c.quote ? dialect.quoteIdentifier(c.name) : c.name);

/** dbt's render_column_constraint. */
function columnConstraintSql(c: ResolvedConstraint): string | undefined {
  const expr = c.expression ?? '';
  switch (c.type) {
    case 'check': return expr ? `check (${expr})` : undefined;
    case 'not_null': return `not null ${expr}`.trim();
    case 'unique': return `unique ${expr}`.trim();
    case 'primary_key': return `primary key ${expr}`.trim();
    case 'foreign_key': {
      const to = c.toRelation ?? c.to;
      if (to && c.toColumns.length > 0) return `references ${to} (${c.toColumns.join(', ')})`;
      return expr ? `references ${expr}` : undefined;
    }
    case 'custom': return expr || undefined;
    default: return undefined;
  }
}

/** dbt's render_model_constraint. */
function modelConstraintSql(c: ResolvedConstraint): string | undefined {
  const prefix = c.name ? `constraint ${c.name} ` : '';
  const columns = c.columns.join(', ');
  const expr = c.expression ? ` ${c.expression}` : '';
  switch (c.type) {
    case 'check': return c.expression ? `${prefix}check (${c.expression})` : undefined;
    case 'unique': return `${prefix}unique${expr} (${columns})`;
    case 'primary_key': return `${prefix}primary key${expr} (${columns})`;
    case 'foreign_key': {
      const to = c.toRelation ?? c.to;
      if (to && c.toColumns.length > 0) return `${prefix}foreign key (${columns}) references ${to} (${c.toColumns.join(', ')})`;
      return c.expression ? `${prefix}foreign key (${columns}) references ${c.expression}` : undefined;
    }
    case 'custom': return c.expression ? `${prefix}${c.expression}` : undefined;
    default: return undefined;
  }
}

/** dbt's process_parsed_constraint: the constraint's DDL unless the engine cannot take it, and the warning it earns. */
function processed(c: ResolvedConstraint, render: (c: ResolvedConstraint) => string | undefined, warnings: { message: string; event: string }[]): string | undefined {
  const support = constraintSupport(dialect.name, c.type);
  const warning = c.type === 'custom' ? undefined : constraintWarning(dialect.name, c.type, support);
  if (warning && ((support === 'not_supported' && c.warnUnsupported) || (support === 'not_enforced' && c.warnUnenforced))) warnings.push(warning);
  return support === 'not_supported' ? undefined : render(c);
}

/**
 * The column definitions and table constraints of a contracted table (dbt's
 * get_table_columns_and_constraints), and the warnings for constraints the
 * engine does not enforce. On SQLite a primary key column also gets `not
 * null`: SQLite's primary key accepts NULLs (and an `integer primary key`
 * column turns a NULL into a new rowid), where the SQL standard's, and
 * PostgreSQL's, refuses them.
 */
export function contractTableBody(spec: ContractSpec): { readonly body: string; readonly warnings: readonly { message: string; event: string }[] } {
  const warnings: { message: string; event: string }[] = [];
  const sqlite = dialect.name === 'sqlite';
  const modelPk = spec.constraints.filter((c) => c.type === 'primary_key').flatMap((c) => c.columns.map((n) => n.toLowerCase()));
  const columns = spec.columns.map((col) => {
    const parts = col.constraints.map((c) => processed(c, columnConstraintSql, warnings)).filter((s): s is string => s !== undefined);
    const pk = col.constraints.some((c) => c.type === 'primary_key') || modelPk.includes(col.name.toLowerCase()) || modelPk.includes(contractColumnName(col).toLowerCase());
    if (sqlite && pk && !col.constraints.some((c) => c.type === 'not_null')) parts.unshift('not null');
    return [contractColumnName(col), col.dataType, ...parts].join(' ');
  });
  const table = spec.constraints.map((c) => processed(c, modelConstraintSql, warnings)).filter((s): s is string => s !== undefined);
  return { body: `(\n    ${[...columns, ...table].join(',\n    ')}\n)`, warnings };
}

/**
 * The statements that build a contracted table at `relation` (dbt's create
 * table with columns and constraints, then insert ... select the contract's
 * columns from the model's SELECT), and SQLite's check of the declared types.
 */
export function contractTableStatements(relation: string, sql: string, spec: ContractSpec, body: string, target: { readonly schema: string; readonly alias: string }): PlannedStatement[] {
  const names = spec.columns.map(contractColumnName).join(', ');
  return [
    ...namedIndexMoves(spec, target),
    { kind: 'exec', role: 'stage', sql: `create table ${relation} ${body}` },
    ...rowidKeyChecks(relation, sql, spec),
    { kind: 'exec', role: 'stage', sql: `insert into ${relation} (${names})\nselect ${names}\nfrom (\n${sql}\n) as model_subq` },
    ...declaredTypeChecks(relation, spec),
  ];
}

/**
 * PostgreSQL only: a named unique or primary key constraint is backed by an
 * index of that name, and index names are the schema's: the table being
 * replaced still holds it while the new one is created under its staging
 * name. Its index is renamed out of the way first (in the same transaction:
 * a failed build puts the name back; the old table, and with it the index,
 * is dropped by the swap).
 */
function namedIndexMoves(spec: ContractSpec, target: { readonly schema: string; readonly alias: string }): PlannedStatement[] {
  if (dialect.name !== 'postgres') return [];
  const named = spec.constraints.filter((c) => c.name && (c.type === 'unique' || c.type === 'primary_key')).map((c) => c.name!);
  const literal = (v: string) => dialect.quoteLiteral(v);
  return named.map((name): PlannedStatement => {
    const moved = `${name.slice(0, 48)}__mini_dbt_old`;
    return {
      kind: 'exec',
      role: 'index',
      sql: `do $$ begin if exists (select 1 from pg_indexes where schemaname = ${literal(target.schema)} and tablename = ${literal(target.alias)} and indexname = ${literal(name)}) then alter index ${dialect.quoteIdentifier(target.schema)}.${dialect.quoteIdentifier(name)} rename to ${dialect.quoteIdentifier(moved)}; end if; end $$`,
    };
  });
}

/**
 * SQLite only: values the contracted table holds in a storage class its
 * column's declared type does not allow. SQLite converts a value into the
 * column's type affinity when it can do so losslessly ('7' into an integer
 * column is stored as 7) and otherwise keeps it as it came ('seven' stays
 * text): such a value breaks the contract as PostgreSQL's refusal would.
 * Checked for integer, real and numeric/decimal columns (text columns convert
 * every number); dates, times and booleans have no storage class of their own
 * in SQLite, so they are not checked.
 */
function declaredTypeChecks(relation: string, spec: ContractSpec): PlannedStatement[] {
  if (dialect.name !== 'sqlite') return [];
  return spec.columns.flatMap((col): PlannedStatement[] => {
    const allowed = allowedStorageClasses(col.dataType);
    if (!allowed) return [];
    const name = contractColumnName(col);
    return [{
      kind: 'assert-none',
      sql: `select count(*) from ${relation} where typeof(${name}) not in (${[...allowed, 'null'].map((t) => `'${t}'`).join(', ')})`,
      message: `contract data type mismatch: column '${col.name}' (data_type ${col.dataType}) holds values SQLite could not store as ${allowed.join(' or ')}`,
      unit: 'value',
      sampleSql: `select ${name} from ${relation} where typeof(${name}) not in (${[...allowed, 'null'].map((t) => `'${t}'`).join(', ')}) limit 3`,
    }];
  });
}

function allowedStorageClasses(dataType: string): readonly string[] | undefined {
  const t = dataType.toUpperCase();
  if (/DATE|TIME|BOOL/.test(t)) return undefined;
  const affinity = dialect.typeAffinity(dataType);
  if (affinity === 'INTEGER') return ['integer'];
  if (affinity === 'REAL') return ['real'];
  if (affinity === 'NUMERIC' && /NUMERIC|DECIMAL|NUMBER/.test(t)) return ['integer', 'real'];
  return undefined;
}

/**
 * SQLite only: a primary key column declared exactly `integer` is the table's
 * rowid, and SQLite numbers a NULL written to it instead of refusing it (its
 * not null included). The NULLs the model's SELECT would write there are
 * counted first, so such a row fails the model as on PostgreSQL. This reads
 * the SELECT twice, only for such a column.
 */
function rowidKeyChecks(relation: string, sql: string, spec: ContractSpec): PlannedStatement[] {
  return rowidKeyColumns(spec).map((col): PlannedStatement => ({
    kind: 'assert-none',
    sql: `select count(*) from (\n${sql}\n) as model_subq where ${contractColumnName(col)} is null`,
    message: `NOT NULL constraint failed: ${relation}.${col.name} (the primary key's rowid column would number a NULL instead of refusing it)`,
  }));
}

/**
 * An incremental run of a contracted model: the statement that stages its new
 * rows (a temp table as the SELECT makes it), and on SQLite the same table
 * created with the contract's declared types and filled by insert ... select,
 * so SQLite converts the values as the target will and a value it cannot
 * convert fails the run (declaredTypeChecks), and the NULLs the target's rowid
 * key would number counted (rowidKeyChecksOfNewRows). PostgreSQL refuses such
 * values itself when the strategy writes them into the typed target.
 */
function contractNewRowsStatements(staging: PlannedStatement, newRows: string, target: string, sql: string, spec: ContractSpec): PlannedStatement[] {
  if (dialect.name !== 'sqlite') return [staging];
  const names = spec.columns.map(contractColumnName).join(', ');
  return [
    { kind: 'exec', role: 'stage', sql: `create table ${newRows} (${spec.columns.map((c) => `${contractColumnName(c)} ${c.dataType}`).join(', ')})` },
    { kind: 'exec', role: 'stage', sql: `insert into ${newRows} (${names})\nselect ${names}\nfrom (\n${sql}\n) as model_subq` },
    ...declaredTypeChecks(newRows, spec),
    ...rowidKeyChecksOfNewRows(target, newRows, spec),
  ];
}

/** An incremental publish's statements with the one staging its new rows replaced by contractNewRowsStatements'. */
export function withContractNewRows(statements: readonly PlannedStatement[], target: { readonly schema: string; readonly alias: string }, sql: string, spec: ContractSpec): PlannedStatement[] {
  const staged = statements.findIndex((s) => s.kind === 'exec' && s.role === 'stage');
  if (staged < 0) return [...statements];
  const replacement = contractNewRowsStatements(statements[staged]!, newRowsTable(target.alias), qualifiedName(target.schema, target.alias), sql, spec);
  return [...statements.slice(0, staged), ...replacement, ...statements.slice(staged + 1)];
}

/** An incremental run's check of the same: the NULLs its new rows would write into the target's rowid key column. */
function rowidKeyChecksOfNewRows(target: string, newRows: string, spec: ContractSpec): PlannedStatement[] {
  return rowidKeyColumns(spec).map((col): PlannedStatement => ({
    kind: 'assert-none',
    sql: `select count(*) from ${newRows} where ${contractColumnName(col)} is null`,
    message: `NOT NULL constraint failed: ${target}.${col.name} (the primary key's rowid column would number a NULL instead of refusing it)`,
  }));
}

/** SQLite: the contract's columns that are the table's rowid (a primary key declared exactly `integer`). */
function rowidKeyColumns(spec: ContractSpec): ContractColumn[] {
  if (dialect.name !== 'sqlite') return [];
  const modelPk = spec.constraints.filter((c) => c.type === 'primary_key' && c.columns.length === 1).map((c) => c.columns[0]!.toLowerCase());
  return spec.columns.filter((col) => /^\s*integer\s*$/i.test(col.dataType)
    && (col.constraints.some((c) => c.type === 'primary_key') || modelPk.includes(col.name.toLowerCase()) || modelPk.includes(contractColumnName(col).toLowerCase())));
}

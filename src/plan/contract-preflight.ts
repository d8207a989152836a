import type { Manifest, ModelNode } from '../compile/manifest.js';
import { contractConfig } from '../config/contract-config.js';
import { dialect } from '../engine/current-engine.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import { contractColumnName, contractTableBody, type ContractSpec, type ResolvedConstraint } from '../materialize/contract-table.js';
import type { ConstraintDefinition } from '../project/constraint-definition.js';
import { parseRelationCall } from '../parse/validate-contract.js';
import { contractMismatchTable, type ContractColumnType } from './contract-mismatch-table.js';
import type { WarehouseFacts } from './warehouse-facts.js';
import type { schemaOf } from './plan-inputs.js';

export interface ContractPlan {
  /** Why a run fails the model before anything is written (dbt's contract errors), if it does. */
  readonly failure?: string;
  /** A table or incremental model: the DDL its full build creates the table with. */
  readonly table?: { readonly spec: ContractSpec; readonly body: string };
  /** Warnings for constraints the engine does not enforce (dbt's ConstraintNotEnforced). */
  readonly warnings: readonly { readonly message: string; readonly event: string }[];
}

/**
 * An enforced contract's run-time part, as dbt's materializations do it: the
 * columns specification must exist and give every column a data_type, then
 * the preflight (dbt's assert_columns_equivalent) compares the names and
 * types the model's SELECT yields with the contract's (same number, every
 * name in both, same type; order does not matter: the table takes the yml
 * order). A view gets the preflight only; a table or incremental model also
 * its DDL. Undefined for a model without an enforced contract, or an
 * ephemeral one (dbt never materializes it, so never checks it).
 */
export function contractPlan(manifest: Manifest, node: ModelNode, sql: string, facts: WarehouseFacts | undefined): ContractPlan | undefined {
  const config = contractConfig(node.config);
  if (!config.enforced) return undefined;
  const materialized = node.settings.materialized;
  if (materialized === 'ephemeral') return undefined;
  const where = `Compilation Error in model ${node.name} (${node.file.path})`;
  const columns = node.properties?.columns ?? [];
  if (columns.length === 0) return { failure: `${where}\n  This model has an enforced contract, and its 'columns' specification is missing`, warnings: [] };
  const untyped = columns.filter((c) => c.dataType === undefined || c.dataType.trim() === '').map((c) => `'${c.name}'`);
  if (untyped.length > 0) {
    return {
      failure: `${where}\n  Contracted models require data_type to be defined for each column. Please ensure that the column name and data_type are defined within the YAML configuration for the [${untyped.join(', ')}] column(s).`,
      warnings: [],
    };
  }
  const spec: ContractSpec = {
    columns: columns.map((c) => ({ name: c.name, quote: c.quote === true, dataType: config.aliasTypes ? aliasedType(c.dataType!) : c.dataType!, constraints: (c.constraints ?? []).map((k) => resolved(manifest, k)) })),
    constraints: (node.properties?.constraints ?? []).map((k) => resolved(manifest, k)),
  };
  const mismatch = facts ? preflight(spec, sql, facts) : undefined;
  if (mismatch) return { failure: `${where}\n  ${mismatch.split('\n').join('\n  ')}`, warnings: [] };
  // dbt's get_empty_schema_sql warns about these (its wording, the list as Python prints it).
  const naked = columns.filter((c) => ['numeric', 'decimal', 'number'].includes(c.dataType!.trim().toLowerCase())).map((c) => `'${c.name}'`);
  const nakedWarning = naked.length > 0 ? [{ message: `Detected columns with numeric type and unspecified precision/scale, this can lead to unintended rounding: [${naked.join(', ')}]\``, event: 'JinjaLogWarning' }] : [];
  if (materialized !== 'table' && materialized !== 'incremental') return { warnings: nakedWarning };
  const { body, warnings } = contractTableBody(spec);
  return { table: { spec, body }, warnings: [...nakedWarning, ...warnings] };
}

/**
 * dbt's alias_types (on unless the contract sets `alias_types: false`): a
 * data_type is translated by the adapter's Column.TYPE_LABELS, which maps
 * `string` (any case) to `TEXT` and keeps every other name.
 */
function aliasedType(dataType: string): string {
  return dataType.trim().toUpperCase() === 'STRING' ? 'TEXT' : dataType;
}

/** A foreign key's `to: ref('x')` / `source('a', 'b')` as the relation the DDL names (SQLite: the bare table, its REFERENCES takes no schema). */
function resolved(manifest: Manifest, c: ConstraintDefinition): ResolvedConstraint {
  if (c.type !== 'foreign_key' || !c.to) return c;
  const call = parseRelationCall(c.to);
  const parent = call?.kind === 'ref'
    ? (manifest.models.get(call.name) ?? manifest.seeds.get(call.name) ?? manifest.snapshots?.get(call.name))
    : call?.kind === 'source' ? manifest.sources.get(`${call.source}.${call.table}`) : undefined;
  if (!parent) return c;
  return { ...c, toRelation: dialect.name === 'sqlite' ? dialect.quoteIdentifier(parent.alias) : qualifiedName(parent.schema, parent.alias) };
}

/** The mismatch table when the SELECT's columns are not the contract's (undefined: they are, or the SELECT cannot be described yet). */
function preflight(spec: ContractSpec, sql: string, facts: WarehouseFacts): string | undefined {
  const produced = facts.selectColumns(sql);
  if (!produced) return undefined;
  const contract = contractTypes(spec, facts);
  if (!contract) return undefined;
  const sqlColumns: ContractColumnType[] = produced.map((c) => ({ name: c.name, type: displayType(c.type) }));
  const same = (a: string, b: string) => (dialect.name === 'sqlite' ? a.toLowerCase() === b.toLowerCase() : a === b);
  const ok = sqlColumns.length === contract.length && sqlColumns.every((s, i) => {
    const y = contract.find((c) => same(c.name, s.name));
    return y !== undefined && typesMatch(produced[i]!.type, y.declared);
  });
  return ok ? undefined : contractMismatchTable(contract, sqlColumns, (s, y) => typesMatch(produced.find((p) => same(p.name, s.name))!.type, contract.find((c) => same(c.name, y.name))!.declared), same);
}

/**
 * The contract's columns as the engine names their types. PostgreSQL: the
 * types `select cast(null as <data_type>) as <name>, ...` yields (dbt's
 * get_empty_schema_sql), so aliases (int, varchar) compare as the server
 * resolves them. SQLite: the data_type as written (see typesMatch).
 */
function contractTypes(spec: ContractSpec, facts: WarehouseFacts): (ContractColumnType & { declared: string })[] | undefined {
  if (dialect.name === 'sqlite') return spec.columns.map((c) => ({ name: c.name, type: c.dataType, declared: c.dataType }));
  const described = facts.selectColumns(`select ${spec.columns.map((c) => `cast(null as ${c.dataType}) as ${contractColumnName(c)}`).join(', ')}`);
  if (!described) return undefined;
  return described.map((c) => ({ name: c.name, type: displayType(c.type), declared: c.type }));
}

/** A type without its modifiers (numeric(10,2) -> numeric): dbt compares the type codes the driver reports, which carry none. */
function displayType(type: string): string {
  return type.replace(/\(.*?\)/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * Whether a column the SELECT yields (its type as CREATE TABLE AS declares
 * it) meets the contract's data_type. PostgreSQL: the same type, modifiers
 * aside. SQLite has no column types, only affinities, and CREATE TABLE AS
 * declares a column by its expression's affinity: a column read from a table
 * or a CAST carries one (INT, TEXT, REAL, NUM), a literal or most function
 * results carry none (''). The rule: no affinity meets any data_type (the
 * contracted table's declared type converts the values as it stores them,
 * and declaredTypeChecks refuses those it cannot convert); otherwise the
 * affinities must be equal, except that a date, time or boolean data_type
 * (NUMERIC affinity by SQLite's rules, but stored as text or numbers by
 * SQLite's date functions and comparisons) accepts any affinity but BLOB.
 */
function typesMatch(produced: string, declared: string): boolean {
  if (dialect.name !== 'sqlite') return displayType(produced) === displayType(declared);
  if (produced.trim() === '') return true;
  const mine = dialect.typeAffinity(produced);
  if (/DATE|TIME|BOOL/i.test(declared)) return mine !== 'BLOB';
  return mine === dialect.typeAffinity(declared);
}

/**
 * on_schema_change's view of a contracted model's new rows on SQLite: the
 * contract's columns and declared types, which its new rows table is created
 * with (contractNewRowsStatements), not the SELECT's (a literal has no type
 * there, which would differ from the contracted table's every run).
 */
export function contractSchema(schema: ReturnType<typeof schemaOf>, spec: ContractSpec | undefined): ReturnType<typeof schemaOf> {
  if (!schema || !spec || dialect.name !== 'sqlite') return schema;
  return { ...schema, source: spec.columns.map((c) => ({ name: contractColumnName(c), type: c.dataType })) };
}

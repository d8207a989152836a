import type { ModelNode } from '../compile/manifest.js';
import { contractConfig } from '../config/contract-config.js';
import { ProjectError } from '../errors/project-error.js';
import { warnUser } from '../errors/user-warning.js';
import { CONSTRAINT_TYPES, isConstraintType } from '../project/constraint-definition.js';

/** Materializations whose DDL carries constraints (dbt's materialization_enforces_constraints). */
const CONSTRAINED_MATERIALIZATIONS = ['table', 'incremental'];

/**
 * The load-time rules of dbt's model contracts and constraints (dbt-core's
 * patch_constraints, _validate_pk_constraints, _validate_constraint_prerequisites
 * and ModelConfig's on_schema_change check), in their wording (E190). A model
 * whose contract is enforced in config() only, with no yml entry, is not refused
 * here: as in dbt, its run fails ("its 'columns' specification is missing").
 * Constraints on a view or ephemeral model with an enforced contract are ignored
 * with dbt's warning (UnsupportedConstraintMaterialization).
 */
export function contractProblem(node: Pick<ModelNode, 'name' | 'config' | 'settings' | 'file' | 'properties'>): ProjectError | undefined {
  const { config, settings, properties } = node;
  // Only an error reads the yml line (a lazy lookup that parses the file with positions: never for every model).
  const location = { file: properties?.location.file ?? node.file.path, get line() { return properties?.location.line; } };
  const contract = contractConfig(config);
  const columns = properties?.columns ?? [];
  const modelConstraints = properties?.constraints ?? [];
  const columnConstraints = columns.flatMap((c) => (c.constraints ?? []).map((k) => ({ column: c.name, constraint: k })));
  if (contract.enforced && settings.materialized === 'incremental') {
    const osc = settings.onSchemaChange;
    if (osc !== 'append_new_columns' && osc !== 'fail') {
      return new ProjectError(`Invalid value for on_schema_change: ${osc}. Models materialized as incremental with contracts enabled must set on_schema_change to 'append_new_columns' or 'fail'`, { location: { file: node.file.path } });
    }
  }
  if (contract.enforced && properties) {
    if (columns.length === 0) {
      return new ProjectError(`Contract enforcement failed for: (${node.file.path})\nConstraints must be defined in a \`yml\` schema configuration file like \`schema.yml\`.`, { location });
    }
    if ([...modelConstraints, ...columnConstraints.map((c) => c.constraint)].some((c) => !isConstraintType(c.type))) {
      return new ProjectError(`Invalid constraint type on model ${node.name}: Type must be one of [${CONSTRAINT_TYPES.map((t) => `'${t}'`).join(', ')}]`, { location });
    }
  }
  const pkColumns = columnConstraints.filter((c) => c.constraint.type === 'primary_key').map((c) => c.column);
  const errors: string[] = [];
  if (pkColumns.length > 1) {
    errors.push(`Found ${pkColumns.length} columns ([${pkColumns.map((c) => `'${c}'`).join(', ')}]) with primary key constraints defined. Primary keys for multiple columns must be defined as a model level constraint.`);
  }
  if (pkColumns.length > 0 && modelConstraints.some((c) => c.type === 'primary_key')) {
    errors.push('Primary key constraints defined at the model level and the columns level. Primary keys can be defined at the model level or the column level, not both.');
  }
  if (errors.length > 0) return new ProjectError(`Primary key constraint error: (${node.file.path})\n${errors.join('\n')}`, { location });
  const materialized = settings.materialized;
  const warnUnsupported = [...modelConstraints, ...columnConstraints.map((c) => c.constraint)].some((c) => c.warnUnsupported);
  if (contract.enforced && warnUnsupported && !CONSTRAINED_MATERIALIZATIONS.includes(materialized)) {
    warnUser(`${node.file.path}: Constraint types are not supported for ${materialized} materializations and will be ignored.  Set 'warn_unsupported: false' on this constraint to ignore this warning.`, 'UnsupportedConstraintMaterialization');
  }
  return undefined;
}

/** The relations a model's foreign_key constraints name with `to:` (dbt adds them to the model's refs and sources). */
export function constraintDependencies(properties: ModelNode['properties']): { readonly refs: string[]; readonly sources: [string, string][] } {
  const refs: string[] = [];
  const sources: [string, string][] = [];
  const all = [...(properties?.constraints ?? []), ...(properties?.columns ?? []).flatMap((c) => c.constraints ?? [])];
  for (const c of all) {
    if (c.type !== 'foreign_key' || !c.to) continue;
    const parsed = parseRelationCall(c.to);
    if (parsed?.kind === 'ref') refs.push(parsed.name);
    else if (parsed?.kind === 'source') sources.push([parsed.source, parsed.table]);
  }
  return { refs, sources };
}

/** `ref('x')`, `ref('pkg', 'x')` or `source('a', 'b')` as written in a constraint's `to:`. */
export function parseRelationCall(text: string): { kind: 'ref'; name: string } | { kind: 'source'; source: string; table: string } | undefined {
  const m = /^\s*(ref|source)\s*\(\s*(.*?)\s*\)\s*$/.exec(text);
  if (!m) return undefined;
  const args = [...m[2]!.matchAll(/['"]([^'"]*)['"]/g)].map((a) => a[1]!);
  if (m[1] === 'ref' && args.length >= 1) return { kind: 'ref', name: args[args.length - 1]! };
  if (m[1] === 'source' && args.length === 2) return { kind: 'source', source: args[0]!, table: args[1]! };
  return undefined;
}

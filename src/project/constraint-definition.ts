import { ProjectError } from '../errors/project-error.js';

/** dbt's constraint types (dbt_common.contracts.constraints.ConstraintType). */
export const CONSTRAINT_TYPES = ['check', 'not_null', 'unique', 'primary_key', 'foreign_key', 'custom'] as const;
export type ConstraintType = (typeof CONSTRAINT_TYPES)[number];

/**
 * One `constraints:` entry of a model's yml, on a column or on the model (then
 * with `columns:`), as dbt's ColumnLevelConstraint / ModelLevelConstraint hold it.
 * `to` is kept as written (`ref('x')`, `source('a', 'b')`): the plan resolves it.
 */
export interface ConstraintDefinition {
  readonly type: ConstraintType;
  readonly name?: string;
  readonly expression?: string;
  /** foreign_key: the parent relation, as written. */
  readonly to?: string;
  readonly toColumns: readonly string[];
  /** A model-level constraint's columns. */
  readonly columns: readonly string[];
  /** Warn when the engine accepts it but does not enforce it (dbt's default true). */
  readonly warnUnenforced: boolean;
  /** Warn when the engine or the materialization cannot apply it (dbt's default true). */
  readonly warnUnsupported: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

/**
 * The entries of a `constraints:` list. An entry that is not a mapping or has no
 * `type` cannot be parsed (dbt: "Could not parse constraint"); an unknown type is
 * kept for the contract check to refuse with dbt's wording (validate-contract.ts),
 * which dbt raises only for a model whose contract is enforced.
 */
export function constraintEntries(value: unknown, where: () => { file: string; line?: number }): ConstraintDefinition[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ProjectError("'constraints' must be a list", { location: where() });
  return value.map((raw) => {
    if (!isRecord(raw) || typeof raw.type !== 'string') throw new ProjectError(`Could not parse constraint: ${JSON.stringify(raw)}`, { location: where() });
    return {
      type: raw.type as ConstraintType,
      ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
      ...(raw.expression !== undefined && raw.expression !== null ? { expression: String(raw.expression) } : {}),
      ...(typeof raw.to === 'string' ? { to: raw.to } : {}),
      toColumns: strings(raw.to_columns),
      columns: strings(raw.columns),
      warnUnenforced: raw.warn_unenforced !== false,
      warnUnsupported: raw.warn_unsupported !== false,
    };
  });
}

export function isConstraintType(type: string): type is ConstraintType {
  return (CONSTRAINT_TYPES as readonly string[]).includes(type);
}

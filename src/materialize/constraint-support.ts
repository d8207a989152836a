import type { ConstraintType } from '../project/constraint-definition.js';

/** dbt's ConstraintSupport: what the engine does with a constraint in a table's DDL. */
export type ConstraintSupport = 'enforced' | 'not_enforced' | 'not_supported';

/**
 * Each engine's constraint support map (dbt's adapter CONSTRAINT_SUPPORT).
 * PostgreSQL enforces all five, as dbt-postgres says. SQLite enforces check,
 * not null, unique and primary key; it parses foreign keys but mini-dbt's
 * connections run with `PRAGMA foreign_keys = OFF` (tables are rebuilt under
 * their children, and SQLite checks foreign keys per connection), so a
 * foreign key is written into the DDL and not enforced, with dbt's warning.
 * `custom` is never checked (dbt renders it as written, without a warning).
 */
const SUPPORT: Record<string, Record<Exclude<ConstraintType, 'custom'>, ConstraintSupport>> = {
  sqlite: { check: 'enforced', not_null: 'enforced', unique: 'enforced', primary_key: 'enforced', foreign_key: 'not_enforced' },
  postgres: { check: 'enforced', not_null: 'enforced', unique: 'enforced', primary_key: 'enforced', foreign_key: 'enforced' },
};

export function constraintSupport(engine: string, type: ConstraintType): ConstraintSupport {
  if (type === 'custom') return 'enforced';
  return SUPPORT[engine]?.[type] ?? 'not_supported';
}

/** dbt's ConstraintNotEnforced / ConstraintNotSupported warnings (their wording). */
export function constraintWarning(engine: string, type: ConstraintType, support: ConstraintSupport): { message: string; event: string } | undefined {
  if (support === 'not_enforced') {
    return {
      event: 'ConstraintNotEnforced',
      message: `The constraint type ${type} is not enforced by ${engine}. The constraint will be included in this model's DDL statement, but it will not guarantee anything about the underlying data. Set 'warn_unenforced: false' on this constraint to ignore this warning.`,
    };
  }
  if (support === 'not_supported') {
    return { event: 'ConstraintNotSupported', message: `The constraint type ${type} is not supported by ${engine}, and will be ignored. Set 'warn_unsupported: false' on this constraint to ignore this warning.` };
  }
  return undefined;
}

import type { ColumnProperties } from './project.js';

/** A snapshot as declared: a `{% snapshot %}` block of a snapshots/*.sql file, or an entry of a yml `snapshots:` list (dbt 1.9). */
export interface SnapshotDefinition {
  readonly name: string;
  /** Project-relative path of the file that declares it. */
  readonly path: string;
  readonly absPath: string;
  /** The line of the `{% snapshot %}` tag, or of the yml entry. */
  readonly line: number;
  /** The block's body (SQL + Jinja), or `select * from {{ ref('x') }}` built from a yml entry's `relation`. */
  readonly rawSql: string;
  /** How many lines of the file come before the body (so a line in the body maps to the file). */
  readonly bodyLineOffset: number;
  /** The yml entry's `config:` (empty for a block, whose config() calls are captured when it renders). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Folder parts below the snapshot path (fqn). */
  readonly folders: readonly string[];
  /** The yml entry's `description` and `columns` (the docs site and manifest.json show them). */
  readonly description?: string;
  readonly columns?: readonly ColumnProperties[];
  /** The yml entry those come from (a block's properties live in another file). */
  readonly propertiesAt?: { readonly file: string; readonly line: number };
}

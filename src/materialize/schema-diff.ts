import { dialect } from '../engine/current-engine.js';
import type { TypeAffinity } from '../engine/dialect.js';

/** A column as SQLite declares it (CREATE TABLE AS gives TEXT, NUM, INT, REAL or no type). */
export interface ColumnSpec {
  readonly name: string;
  readonly type: string;
}

export interface SchemaDiff {
  /** In the model's output, not in the table. */
  readonly added: readonly ColumnSpec[];
  /** In the table, not in the model's output. */
  readonly removed: readonly ColumnSpec[];
  /** In both, with a different type affinity. */
  readonly changed: readonly { readonly name: string; readonly from: string; readonly to: string }[];
}

/** The engine's family of a declared type (SQLite: its type affinity). */
export function typeAffinity(declared: string): TypeAffinity {
  return dialect.typeAffinity(declared);
}

/** How a column type reads in messages: its declaration, or "no type". */
export function typeName(declared: string): string {
  return declared === '' ? 'no type' : declared;
}

/**
 * Compare the target table's columns with the model's new output, by name
 * (case-insensitively, as SQLite does) and by type affinity, so INT and
 * INTEGER are the same type but REAL and TEXT are not.
 */
export function diffSchemas(target: readonly ColumnSpec[], source: readonly ColumnSpec[]): SchemaDiff {
  const key = (name: string) => name.toLowerCase();
  const inTarget = new Map(target.map((c) => [key(c.name), c]));
  const inSource = new Map(source.map((c) => [key(c.name), c]));
  const changed: { name: string; from: string; to: string }[] = [];
  for (const c of source) {
    const old = inTarget.get(key(c.name));
    if (old && typeAffinity(old.type) !== typeAffinity(c.type)) changed.push({ name: c.name, from: typeName(old.type), to: typeName(c.type) });
  }
  return {
    added: source.filter((c) => !inTarget.has(key(c.name))),
    removed: target.filter((c) => !inSource.has(key(c.name))),
    changed,
  };
}

export function isEmptyDiff(diff: SchemaDiff): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}

/** "a (TEXT), b (no type)" */
export function listColumns(columns: readonly ColumnSpec[]): string {
  return columns.map((c) => `${c.name} (${typeName(c.type)})`).join(', ');
}

/** What on_schema_change found and decided for an incremental run. */
export interface SchemaChange {
  readonly mode: string;
  readonly added: readonly { readonly name: string; readonly type: string }[];
  readonly removed: readonly { readonly name: string; readonly type: string }[];
  readonly changed: readonly { readonly name: string; readonly from: string; readonly to: string }[];
  /** What the run does about it, in words. */
  readonly action: string;
}

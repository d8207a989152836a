/**
 * A seed's `quote_columns` config, as dbt's adapter.quote_seed_column reads it: unset (or null) means
 * quote (the base adapter's default, which dbt-sqlite keeps), a boolean decides, anything else is refused.
 * Unquoted, a header name is written into the CREATE TABLE and INSERT as it is, so a name that is not a
 * plain identifier would break (or, worse, change) the statement: it is refused first, naming the column.
 */
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { ProjectError } from '../errors/project-error.js';
import { quoteForMessage } from './seed-record-error.js';

/** Whether to quote the seed's column names; throws for a value that is not a boolean (E139). */
export function seedQuoteColumns(value: unknown, file: string): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  throw new ProjectError(`the seed configuration value of "quote_columns" has an invalid type: ${JSON.stringify(value)} is not true or false`, {
    location: { file },
    hint: 'quote_columns: true (the default) quotes every column name; false writes them as they are',
  });
}

/** A column name as the seed's statements write it. */
export function seedColumnSql(name: string, quote: boolean): string {
  return quote ? quoteIdentifier(name) : name;
}

/** Letters, digits and underscores, not starting with a digit: a name every SQL dialect reads bare. */
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Unquoted names (quote_columns: false): each must read as that one column in a column definition, or
 * the CREATE TABLE would fail on a raw syntax error (or, for `First Name`, silently make a column
 * `First` of type `Name`). Checked by preparing (never running) a one-column CREATE TABLE per name,
 * before anything is written (E134).
 */
export function checkBareColumns(db: Warehouse, relation: string, names: readonly string[], file: string): void {
  for (const name of names) {
    let why: string | undefined;
    if (!PLAIN_IDENTIFIER.test(name)) {
      why = 'it is not a plain identifier (letters, digits and underscores, not starting with a digit)';
    } else {
      try {
        db.prepare(dialect.createTable(relation, `${name} ${dialect.types.text}`));
      } catch (err) {
        why = `it is an SQL keyword the database cannot read unquoted (${err instanceof Error ? err.message : String(err)})`;
      }
    }
    if (why !== undefined) {
      throw new ProjectError(`column ${quoteForMessage(name)} cannot be written unquoted, as quote_columns: false asks: ${why}`, {
        location: { file, line: 1 },
        hint: 'rename the column in the header, or drop quote_columns: false (dbt quotes seed columns by default)',
      });
    }
  }
}

import { ProjectError } from '../errors/project-error.js';
import { dialect } from '../engine/current-engine.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import type { ColumnInfo } from '../engine/relation-kind.js';
import type { FixtureRow } from '../compile/unit-test-node.js';
import { fixtureLiteral } from './fixture-literal.js';

/** Rows with lower-cased column names, each checked against `columns` (dbt's "Invalid column name" error). */
function rowsByColumn(rows: readonly FixtureRow[], columns: readonly ColumnInfo[], fixtureName: string): Map<string, unknown>[] {
  const known = new Set(columns.map((c) => c.name.toLowerCase()));
  return rows.map((row) => {
    const out = new Map<string, unknown>();
    for (const [name, value] of Object.entries(row)) {
      const key = name.toLowerCase();
      if (!known.has(key)) {
        throw new ProjectError(`Invalid column name: '${key}' in unit test fixture for ${fixtureName}.\nAccepted columns for ${fixtureName} are: [${[...known].map((c) => `'${c}'`).join(', ')}]`);
      }
      out.set(key, value);
    }
    return out;
  });
}

/** A fixture value in a column of `type`: dbt casts each value to its column's type (on SQLite, affinity does). */
const valueAs = (value: unknown, type: string, fromCsv: boolean): string => dialect.typed(fixtureLiteral(value, type, fromCsv), type);

/**
 * A given input's rows as a SELECT with every column of the input's relation
 * (dbt's get_fixture_sql): a column a row leaves out is null; no rows is a
 * `limit 0` select of the columns.
 */
export function fixtureSql(rows: readonly FixtureRow[], columns: readonly ColumnInfo[], fixtureName: string, fromCsv: boolean): string {
  const byColumn = rowsByColumn(rows, columns, fixtureName);
  const select = (row: Map<string, unknown> | undefined) =>
    `select ${columns.map((c) => `${row ? valueAs(row.get(c.name.toLowerCase()), c.type, fromCsv) : dialect.typed('null', c.type)} as ${quoteIdentifier(c.name)}`).join(', ')}`;
  if (byColumn.length === 0) return `${select(undefined)}\nlimit 0`;
  return byColumn.map((row) => select(row)).join('\nunion all\n');
}

/** The columns the expected rows name (in first-seen order, lower case): the columns a unit test compares. */
export function testedColumns(rows: readonly FixtureRow[]): string[] {
  const names = new Set<string>();
  for (const row of rows) for (const name of Object.keys(row)) names.add(name.toLowerCase());
  return [...names];
}

/**
 * The expected rows as a SELECT of the tested columns (dbt's
 * get_expected_sql): values take the types the model's columns have, a
 * column a row leaves out is null; no rows selects nothing from the actual
 * rows.
 */
export function expectedSql(rows: readonly FixtureRow[], columns: readonly ColumnInfo[], fromCsv: boolean): string {
  if (rows.length === 0) return 'select * from dbt_internal_unit_test_actual\nlimit 0';
  const byColumn = rowsByColumn(rows, columns, 'expected output');
  const types = new Map(columns.map((c) => [c.name.toLowerCase(), c]));
  const tested = testedColumns(rows);
  return byColumn
    .map((row) => `select ${tested.map((name) => `${valueAs(row.get(name), types.get(name)!.type, fromCsv)} as ${quoteIdentifier(types.get(name)!.name)}`).join(', ')}`)
    .join('\nunion all\n');
}

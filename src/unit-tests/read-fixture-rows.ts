import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { FixtureRow, FixtureRows } from '../compile/unit-test-node.js';
import type { FixtureFile, UnitTestRows } from '../project/unit-test-definition.js';

/**
 * CSV text as dbt reads a csv fixture: a header line, then rows; every value
 * stays text (the column's type decides later), an empty cell is null.
 */
export function csvFixtureRows(text: string, where: { readonly file: string; readonly line?: number }): FixtureRow[] {
  // Loaded when a csv fixture is read, not with every command (the project is parsed on each one).
  const { parse } = createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync');
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: (header: string[]) => header.map((h) => h.trim()), skip_empty_lines: true, relax_column_count: false, trim: false }) as Record<string, string>[];
  } catch (err) {
    throw new ProjectError(`csv rows could not be read: ${err instanceof Error ? err.message : String(err)}`, { location: where });
  }
  return records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === '' ? null : v])));
}

/**
 * The rows of a `given:` or `expect:` block: inline rows, or the fixture file
 * it names (tests/fixtures/<name>.csv or .sql); `seedCsv` gives a seed
 * input's own rows when none are written (dbt reads the seed file).
 */
export function readFixtureRows(
  block: UnitTestRows, fixtures: ReadonlyMap<string, FixtureFile>, where: { readonly file: string; readonly line?: number; readonly what: string }, seedCsv?: string,
): FixtureRows {
  if (block.fixture !== undefined) {
    const file = fixtures.get(block.fixture);
    if (!file) {
      throw new ProjectError(`${where.what}: no fixture file named '${block.fixture}' under tests/fixtures.${didYouMeanSuffix(block.fixture, [...fixtures.keys()])}`, {
        location: where, hint: `create tests/fixtures/${block.fixture}.${block.format === 'sql' ? 'sql' : 'csv'}`,
      });
    }
    if (file.format !== block.format) {
      throw new ProjectError(`${where.what}: fixture '${block.fixture}' is a .${file.format} file, but the format is ${block.format}`, { location: where, hint: `write format: ${file.format}` });
    }
    const text = readFileSync(file.absPath, 'utf8');
    return block.format === 'sql' ? { format: 'sql', sql: text } : { format: 'csv', rows: csvFixtureRows(text, { file: file.path }) };
  }
  if (block.format === 'sql') return { format: 'sql', sql: String(block.rows) };
  if (block.format === 'csv') return { format: 'csv', rows: csvFixtureRows(String(block.rows), where) };
  if (block.rows === undefined) {
    if (seedCsv !== undefined) return { format: 'csv', rows: csvFixtureRows(readFileSync(seedCsv, 'utf8'), where) };
    throw new ProjectError(`${where.what} has no rows: write rows: [] for an input without rows`, { location: where });
  }
  const rows = (block.rows as Record<string, unknown>[]).map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v])));
  return { format: 'dict', rows };
}

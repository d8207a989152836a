/**
 * A seed's header: column names checked, column_types resolved, index specs
 * matched to real columns. Everything here fails before any row is read.
 */
import { dialect } from '../engine/current-engine.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { quoteForMessage } from './seed-record-error.js';
import { declaredTypeCheck, foldIdentifier, isSafeSqlType, type ValueCheck } from './seed-types.js';
import type { IndexSpec, LoadSeedOptions } from './seed.js';

export interface SeedColumn {
  name: string;
  type: string;
  /** Validation for a declared type; undefined when the type is inferred. */
  check: ValueCheck | undefined;
}

export interface ResolvedIndex {
  name: string;
  columns: string[];
  unique: boolean;
}

/** Deterministic index name: `<table>__idx__<col1>__<col2>`. */
export function indexName(table: string, index: IndexSpec): string {
  return `${table}__idx__${index.columns.join('__')}`;
}

/** Validate the header and resolve column_types; throws ProjectError at line 1. */
/** A record that is nothing but whitespace (a blank line, or spaces). */
export function isWhitespaceRecord(record: readonly string[]): boolean {
  return record.length === 1 && record[0]!.trim() === '';
}

/** Blank lines, then the header: dbt reads the first line as the header, so this is refused rather than guessed. */
export function blankHeaderError(file: string): ProjectError {
  return new ProjectError('the first line is blank: expected a header row with the column names', { location: { file, line: 1 } });
}

export function headerColumns(header: string[], options: LoadSeedOptions): SeedColumn[] {
  const file = options.displayPath;
  const seen = new Map<string, number>();
  header.forEach((name, i) => {
    if (name === '') {
      throw new ProjectError(`column ${i + 1} of the header has an empty name`, { location: { file, line: 1 } });
    }
    const folded = foldIdentifier(name);
    const first = seen.get(folded);
    if (first !== undefined) {
      throw new ProjectError(
        `duplicate column name ${quoteForMessage(name)} (columns ${first + 1} and ${i + 1}; names are case-insensitive)`,
        { location: { file, line: 1 } },
      );
    }
    seen.set(folded, i);
  });

  const declared = new Map<number, string>();
  for (const [name, type] of Object.entries(options.columnTypes ?? {})) {
    const position = header.indexOf(name) >= 0 ? header.indexOf(name) : seen.get(foldIdentifier(name));
    if (position === undefined) {
      throw new ProjectError(
        `column_types names column ${quoteForMessage(name)}, which is not in the header; the columns are: ${header.join(', ')}.${didYouMeanSuffix(name, header)}`,
        { location: { file } },
      );
    }
    if (typeof type !== 'string' || !isSafeSqlType(type)) {
      throw new ProjectError(
        `column_types for column ${quoteForMessage(name)} is not a valid SQL type: ${JSON.stringify(type)}`,
        { location: { file } },
      );
    }
    if (declared.has(position)) {
      throw new ProjectError(`column_types names column ${quoteForMessage(header[position]!)} twice`, { location: { file } });
    }
    declared.set(position, type.trim());
  }

  return header.map((name, i) => {
    const type = declared.get(i);
    return type === undefined ? { name, type: dialect.types.text, check: undefined } : { name, type, check: declaredTypeCheck(type) };
  });
}

/** Check index specs against the header (before any write). */
export function checkIndexes(options: LoadSeedOptions, header: string[]): ResolvedIndex[] {
  const file = options.displayPath;
  const byFolded = new Map(header.map((name) => [foldIdentifier(name), name]));
  const names = new Set<string>();
  return (options.indexes ?? []).map((spec) => {
    if (spec.columns.length === 0) throw new ProjectError('an index on a seed needs at least one column', { location: { file } });
    const columns = spec.columns.map((column) => {
      const real = header.includes(column) ? column : byFolded.get(foldIdentifier(column));
      if (real === undefined) {
        throw new ProjectError(
          `index column ${quoteForMessage(column)} is not in the header; the columns are: ${header.join(', ')}.${didYouMeanSuffix(column, header)}`,
          { location: { file } },
        );
      }
      return real;
    });
    const name = indexName(options.table, spec);
    if (names.has(foldIdentifier(name))) {
      throw new ProjectError(`two indexes on seed ${quoteForMessage(options.table)} have the same name ${quoteForMessage(name)}`, {
        location: { file },
      });
    }
    names.add(foldIdentifier(name));
    return { name, columns, unique: spec.unique === true };
  });
}

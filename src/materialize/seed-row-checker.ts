/**
 * The per-row work on a seed's data records: ragged rows, type inference of
 * undeclared columns, and column_types validation of declared ones.
 */
import type { SeedColumn } from './seed-header.js';
import { isBlankRecord, quoteForMessage, raggedRow, RecordError } from './seed-record-error.js';
import { classifyValue, fitsDeclaredType, inferredType, ValueClass, type ValueCheck } from './seed-types.js';

export class SeedRowChecker {
  readonly width: number;
  private readonly states: Uint8Array;
  private readonly checks: (ValueCheck | undefined)[];
  private readonly hasChecks: boolean;
  /** How many times an undeclared column's inferred class widened (integer to real, ...): a type changed. */
  widenings = 0;

  constructor(readonly columns: readonly SeedColumn[]) {
    this.width = columns.length;
    // A declared column needs no inference: it starts (and stays) "text" for the classifier.
    this.states = Uint8Array.from(columns, (c) => (c.check === undefined ? ValueClass.None : ValueClass.Text));
    this.checks = columns.map((c) => (c.check === 'text' ? undefined : c.check));
    this.hasChecks = this.checks.some((c) => c !== undefined);
  }

  /** Check data record number `index` (the header is 0); false for a blank line to skip. Throws RecordError. */
  accept(record: string[], index: number): boolean {
    const { width, states, hasChecks } = this;
    if (record.length !== width) {
      if (width > 1 && isBlankRecord(record)) return false;
      throw raggedRow(index, width, record.length);
    }
    for (let c = 0; c < width; c++) {
      const state = states[c]!;
      if (state === ValueClass.Text && !hasChecks) continue;
      const value = record[c]!;
      if (value === '' || value === 'null') continue;
      if (state !== ValueClass.Text) {
        const cls = classifyValue(value);
        if (cls > state) {
          states[c] = cls;
          this.widenings++;
        }
      }
      if (hasChecks) {
        const check = this.checks[c];
        if (check !== undefined && !fitsDeclaredType(value, check)) {
          const column = this.columns[c]!;
          throw new RecordError(index, `value ${quoteForMessage(value)} in column ${quoteForMessage(column.name)} is not a valid ${column.type} (column_types)`);
        }
      }
    }
    return true;
  }

  /** Every column's SQL type given the rows accepted so far: declared, else inferred (all-NULL columns are TEXT). */
  types(): string[] {
    return this.columns.map((column, c) => (column.check === undefined ? inferredType(this.states[c] as ValueClass) : column.type));
  }
}

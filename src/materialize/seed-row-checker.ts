/**
 * The per-row work on a seed's data records: ragged rows, type inference of
 * undeclared columns, and column_types validation of declared ones.
 */
import { isPlainValueOf } from './seed-calendar-value.js';
import type { SeedColumn } from './seed-header.js';
import { isBlankRecord, quoteForMessage, raggedRow, RecordError } from './seed-record-error.js';
import { classifyValue, combineClasses, engineTypesCalendar, fitsDeclaredType, inferredType, ValueClass, type ValueCheck } from './seed-types.js';

export class SeedRowChecker {
  readonly width: number;
  private readonly states: Uint8Array;
  private readonly checks: (ValueCheck | undefined)[];
  private readonly hasChecks: boolean;
  /** The engine has date, timestamp and boolean types (else such values are text). */
  private readonly calendar: boolean;
  /** How many times an undeclared column's inferred SQL type changed (integer to float8, date to text, ...). */
  widenings = 0;

  constructor(readonly columns: readonly SeedColumn[]) {
    this.width = columns.length;
    // A declared column needs no inference: it starts (and stays) "text" for the classifier.
    this.states = Uint8Array.from(columns, (c) => (c.check === undefined ? ValueClass.None : ValueClass.Text));
    this.checks = columns.map((c) => (c.check === 'text' ? undefined : c.check));
    this.hasChecks = this.checks.some((c) => c !== undefined);
    this.calendar = engineTypesCalendar();
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
      // A date (timestamp, boolean) column's next value in the common form: nothing changes.
      if (state !== ValueClass.Text && !(state >= ValueClass.Date && isPlainValueOf(value, state as ValueClass))) {
        const next = combineClasses(state as ValueClass, classifyValue(value, this.calendar));
        if (next !== state) {
          states[c] = next;
          if (inferredType(next) !== inferredType(state as ValueClass)) this.widenings++;
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

  /** Every column's SQL type given the rows accepted so far: declared, else inferred (an all-NULL column: the engine's `types.empty`, else text). */
  types(): string[] {
    return this.columns.map((column, c) => (column.check === undefined ? inferredType(this.states[c] as ValueClass) : column.type));
  }
}

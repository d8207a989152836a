/**
 * The per-row work on a seed's data records: ragged rows, type inference of
 * undeclared columns, and column_types validation of declared ones.
 */
import { isPlainValueOf } from './seed-calendar-value.js';
import type { SeedColumn } from './seed-header.js';
import { isBlankRecord, quoteForMessage, raggedRow, RecordError } from './seed-record-error.js';
import { storedFormsDiffer } from './seed-stored-value.js';
import { classifyValue, combineClasses, fitsDeclaredType, inferredType, ValueClass, type ValueCheck } from './seed-types.js';

export class SeedRowChecker {
  readonly width: number;
  private readonly states: Uint8Array;
  private readonly checks: (ValueCheck | undefined)[];
  private readonly hasChecks: boolean;
  /** Per column, the last value that showed the column's date, timestamp or boolean class (a feed repeats its days). */
  private readonly lastCalendar: string[];
  /** How many times the way an undeclared column is written changed: its inferred SQL type (integer to float8, date to text, ...), or on SQLite the stored form of its dates, timestamps or booleans (date to text, both TEXT). */
  widenings = 0;

  constructor(readonly columns: readonly SeedColumn[]) {
    this.width = columns.length;
    // A declared column needs no inference: it starts (and stays) "text" for the classifier.
    this.states = Uint8Array.from(columns, (c) => (c.check === undefined ? ValueClass.None : ValueClass.Text));
    this.checks = columns.map((c) => (c.check === 'text' ? undefined : c.check));
    this.hasChecks = this.checks.some((c) => c !== undefined);
    this.lastCalendar = columns.map(() => '');
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
      if (state >= ValueClass.Date && state !== ValueClass.Text) {
        // A date (timestamp, boolean) column's next value, the last one again or another in the common form: nothing changes.
        if (value !== this.lastCalendar[c]) {
          if (isPlainValueOf(value, state as ValueClass)) this.lastCalendar[c] = value;
          else this.classify(c, state as ValueClass, value);
        }
      } else if (state !== ValueClass.Text) {
        this.classify(c, state as ValueClass, value);
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

  /** Column `c`, `state` so far, shows `value`: its state is what the two combine to. */
  private classify(c: number, state: ValueClass, value: string): void {
    const next = combineClasses(state, classifyValue(value));
    if (next === state) return;
    this.states[c] = next;
    this.lastCalendar[c] = '';
    if (inferredType(next) !== inferredType(state) || storedFormsDiffer(next, state)) this.widenings++;
  }

  /** Every column's SQL type given the rows accepted so far: declared, else inferred (an all-NULL column: the engine's `types.empty`, else text). */
  types(): string[] {
    return this.columns.map((column, c) => (column.check === undefined ? inferredType(this.states[c] as ValueClass) : column.type));
  }

  /** Every column's inferred class given the rows accepted so far (how its values are written); undefined for a declared column. */
  classes(): (ValueClass | undefined)[] {
    return this.columns.map((column, c) => (column.check === undefined ? (this.states[c] as ValueClass) : undefined));
  }
}

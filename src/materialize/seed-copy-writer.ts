/**
 * A seed's rows through the engine's bulk path (PostgreSQL's COPY ... FROM
 * STDIN): records become COPY text lines, joined into chunks, and every few
 * megabytes a batch is handed to the one COPY of the load. The COPY stays
 * open across batches and a batch is handed over without waiting for the
 * server to take it, so the server loads one batch while the next is read
 * and checked. Memory holds about two batches, not the file.
 *
 * A row the database refuses (a date that is not one, a number too large for
 * its integer type) comes back with its line in the COPY, maybe a batch
 * later: it is reported as a RecordError at its record, so the caller names
 * the file's line (E178).
 */
import { CopyRowError, type BulkLoad } from '../engine/connection.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { crashPoint } from '../test-hooks.js';
import { copyTextLine } from './seed-copy-text.js';
import { quoteForMessage, RecordError } from './seed-record-error.js';
import type { SeedRowWriter } from './seed-row-writer.js';

/** Characters of COPY text per batch handed to the COPY (about as many bytes for ASCII data). */
const BATCH_CHARS = 4 << 20;
/** Lines joined into one chunk of the COPY's data stream. */
const LINES_PER_CHUNK = 4096;

export class SeedCopyWriter implements SeedRowWriter {
  private readonly width: number;
  private load: BulkLoad | undefined;
  private chunks: string[] = [];
  private lines: string[] = [];
  private batchChars = 0;
  /** COPY lines so far (the COPY numbers them from 1). */
  private lineCount = 0;
  /**
   * Which file record each COPY line is: from line `starts[i]` on, record = line + `offsets[i]`
   * (the offset changes only where a blank record was skipped).
   */
  private readonly starts: number[] = [];
  private readonly offsets: number[] = [];

  constructor(
    private readonly db: Warehouse & { copyIn: NonNullable<Warehouse['copyIn']> },
    private readonly relation: string,
    private readonly columnSql: readonly string[],
    private readonly columnNames: readonly string[],
  ) {
    this.width = columnSql.length;
  }

  get rows(): number {
    return this.lineCount;
  }

  add(record: readonly string[], recordIndex: number): void {
    const line = copyTextLine(record, this.width);
    const number = ++this.lineCount;
    const offset = recordIndex - number;
    if (this.offsets.length === 0 || this.offsets[this.offsets.length - 1] !== offset) {
      this.starts.push(number);
      this.offsets.push(offset);
    }
    this.lines.push(line);
    this.batchChars += line.length;
    if (this.lines.length === LINES_PER_CHUNK) this.closeChunk();
    if (this.batchChars >= BATCH_CHARS) this.sendBatch();
  }

  /** Hand over what is buffered and end the COPY. */
  flush(): void {
    this.sendBatch();
    const load = this.load;
    if (!load) return;
    this.load = undefined;
    this.mapped(() => load.end());
  }

  private sendBatch(): void {
    this.closeChunk();
    if (this.chunks.length === 0) return;
    crashPoint();
    const chunks = this.chunks;
    this.chunks = [];
    this.batchChars = 0;
    // The seed's staging table, created in the load's transaction (seed-staging.ts).
    this.load ??= this.db.copyIn(this.relation, this.columnSql, { createdInTransaction: true });
    const load = this.load;
    this.mapped(() => load.write(chunks));
  }

  /** A row the database refused, as a RecordError at its record. */
  private mapped<T>(call: () => T): T {
    try {
      return call();
    } catch (err) {
      this.load = undefined;
      if (err instanceof CopyRowError) {
        const recordIndex = this.recordOf(err.line);
        if (recordIndex !== undefined) throw new RecordError(recordIndex, this.refusal(err));
      }
      throw err;
    }
  }

  private recordOf(line: number): number | undefined {
    if (line < 1 || line > this.lineCount) return undefined;
    let i = this.starts.length - 1;
    while (i > 0 && this.starts[i]! > line) i--;
    return line + this.offsets[i]!;
  }

  /** E178: the database refused a value the seed's own checks let through. */
  private refusal(err: CopyRowError): string {
    const column = err.column === undefined ? undefined : this.columnNames.find((name) => name === err.column || name.toLowerCase() === err.column);
    return `the database refused this row${column === undefined ? '' : ` (column ${quoteForMessage(column)})`}: ${err.message}`;
  }

  private closeChunk(): void {
    if (this.lines.length === 0) return;
    this.chunks.push(this.lines.join(''));
    this.lines = [];
  }
}

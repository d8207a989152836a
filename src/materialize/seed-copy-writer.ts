/**
 * A seed's rows through the engine's bulk path (PostgreSQL's COPY ... FROM
 * STDIN): records become COPY text lines, joined into chunks, and every few
 * megabytes the batch goes to the server as one COPY into the staging table
 * (several COPYs in the load's one transaction). Memory holds one batch, not
 * the file.
 *
 * A row the database refuses (a date that is not one, a number too large for
 * its integer type) comes back with its line in the batch: it is reported as
 * a RecordError at its record, so the caller names the file's line (E178).
 */
import { CopyRowError } from '../engine/connection.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { crashPoint } from '../test-hooks.js';
import { copyTextLine } from './seed-copy-text.js';
import { quoteForMessage, RecordError } from './seed-record-error.js';
import type { SeedRowWriter } from './seed-row-writer.js';

/** Characters of COPY text per COPY statement (about as many bytes for ASCII data). */
const BATCH_CHARS = 4 << 20;
/** Lines joined into one chunk of the COPY's data stream. */
const LINES_PER_CHUNK = 4096;

export class SeedCopyWriter implements SeedRowWriter {
  private readonly width: number;
  private chunks: string[] = [];
  private lines: string[] = [];
  /** The file record of each line of the current batch. */
  private recordIndexes: number[] = [];
  private batchChars = 0;
  private written = 0;

  constructor(
    private readonly db: Warehouse & { copyIn: NonNullable<Warehouse['copyIn']> },
    private readonly relation: string,
    private readonly columnSql: readonly string[],
    private readonly columnNames: readonly string[],
  ) {
    this.width = columnSql.length;
  }

  get rows(): number {
    return this.written + this.recordIndexes.length;
  }

  add(record: readonly string[], recordIndex: number): void {
    const line = copyTextLine(record, this.width);
    this.lines.push(line);
    this.recordIndexes.push(recordIndex);
    this.batchChars += line.length;
    if (this.lines.length === LINES_PER_CHUNK) this.closeChunk();
    if (this.batchChars >= BATCH_CHARS) this.flush();
  }

  flush(): void {
    this.closeChunk();
    if (this.chunks.length === 0) return;
    crashPoint();
    const chunks = this.chunks;
    this.chunks = [];
    this.batchChars = 0;
    try {
      this.db.copyIn(this.relation, this.columnSql, chunks);
    } catch (err) {
      if (err instanceof CopyRowError) {
        const recordIndex = this.recordIndexes[err.line - 1];
        if (recordIndex !== undefined) throw new RecordError(recordIndex, this.refusal(err));
      }
      throw err;
    }
    this.written += this.recordIndexes.length;
    this.recordIndexes = [];
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

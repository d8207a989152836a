/**
 * A seed's rows through one prepared multi-row INSERT, run per batch (the
 * engines without a bulk path: SQLite). Values of numeric columns are bound
 * as numbers when that changes nothing (seed-number-param.ts); inferred
 * dates, timestamps and booleans as dbt-sqlite stores them
 * (seed-stored-value.ts).
 */
import type { PreparedStatement } from '../engine/connection.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { crashPoint } from '../test-hooks.js';
import { numberParamFor, type SeedParam } from './seed-number-param.js';
import type { SeedRowWriter } from './seed-row-writer.js';
import type { StagingColumn } from './seed-staging.js';
import { storedValueFor } from './seed-stored-value.js';

/** Rows per prepared multi-row INSERT (fewer for very wide tables). */
const ROWS_PER_INSERT = 200;

export class SeedInsertWriter implements SeedRowWriter {
  private readonly width: number;
  private readonly rowsPerInsert: number;
  private readonly batchInsert: PreparedStatement;
  private readonly params: (SeedParam | null)[];
  /** Per column: bind its values as dbt-sqlite stores them, as numbers (numeric affinity), or as text. */
  private readonly converters: (((value: string) => SeedParam) | undefined)[];
  private buffered = 0;
  private inserted = 0;

  constructor(
    private readonly db: Warehouse,
    private readonly relation: string,
    private readonly columnSql: readonly string[],
    columns: readonly StagingColumn[],
  ) {
    this.width = columnSql.length;
    this.rowsPerInsert = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(dialect.maxBindParameters / this.width)));
    this.params = new Array<SeedParam | null>(this.rowsPerInsert * this.width).fill(null);
    this.converters = columns.map((column) => storedValueFor(column.cls) ?? numberParamFor(column.type));
    this.batchInsert = db.prepare(this.insertSql(this.rowsPerInsert));
  }

  get rows(): number {
    return this.inserted + this.buffered;
  }

  add(record: readonly string[]): void {
    const { width, params, converters } = this;
    let p = this.buffered * width;
    for (let c = 0; c < width; c++) {
      const value = record[c]!;
      const convert = converters[c];
      params[p++] = value === '' || value === 'null' ? null : convert ? convert(value) : value;
    }
    if (++this.buffered === this.rowsPerInsert) {
      crashPoint();
      this.batchInsert.run(params);
      this.inserted += this.rowsPerInsert;
      this.buffered = 0;
    }
  }

  flush(): void {
    if (this.buffered === 0) return;
    this.db.prepare(this.insertSql(this.buffered)).run(this.params.slice(0, this.buffered * this.width));
    this.inserted += this.buffered;
    this.buffered = 0;
  }

  private insertSql(rowCount: number): string {
    const row = `(${new Array<string>(this.width).fill('?').join(', ')})`;
    return `insert into ${this.relation} (${this.columnSql.join(', ')}) values ${new Array<string>(rowCount).fill(row).join(', ')}`;
  }
}

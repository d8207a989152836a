/** How a seed's staging table receives its rows: batched multi-row INSERTs, or COPY where the engine has it. */
export interface SeedRowWriter {
  /** Add one data record (exactly the table's width of fields); `recordIndex` is its record number in the file (the header is 0). */
  add(record: readonly string[], recordIndex: number): void;
  /** Write what is buffered. */
  flush(): void;
  /** Data rows added so far. */
  readonly rows: number;
}

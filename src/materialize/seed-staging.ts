/**
 * The write side of a seed load, all in one transaction: a staging table,
 * the rows (through COPY where the engine has a bulk path, else batched
 * multi-row INSERTs), the indexes, the swap into place, then COMMIT. On any
 * error everything rolls back and the old table is left exactly as it was.
 */
import { crashPoint } from '../test-hooks.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { swapRelation } from '../engine/swap-relation.js';
import { ProjectError } from '../errors/project-error.js';
import type { ResolvedIndex } from './seed-header.js';
import { SeedCopyWriter } from './seed-copy-writer.js';
import { SeedInsertWriter } from './seed-insert-writer.js';
import { quoteForMessage } from './seed-record-error.js';
import type { SeedRowWriter } from './seed-row-writer.js';
import { checkBareColumns, seedColumnSql, seedQuoteColumns } from './seed-quote-columns.js';
import { foldIdentifier, type ValueClass } from './seed-types.js';
import { stagedTableName } from './staging-names.js';
import type { LoadSeedOptions, SeedLoadResult } from './seed.js';

/** A staging table's column: its SQL type and, when inferred, its class (how a date, timestamp or boolean is written: seed-stored-value.ts). */
export interface StagingColumn {
  name: string;
  type: string;
  cls?: ValueClass | undefined;
}

export class SeedStaging {
  private readonly statements: string[] = [];
  private readonly staging: string;
  private readonly schema: string;
  /** The staging table as SQL, in the seed's schema. */
  private readonly stagingRelation: string;
  private readonly writer: SeedRowWriter;
  /** dbt's quote_columns: the column names as the CREATE TABLE and the rows' statements write them. */
  private readonly columnSql: readonly string[];

  /** BEGIN IMMEDIATE and create the staging table with these columns. */
  constructor(
    private readonly db: Warehouse,
    private readonly options: LoadSeedOptions,
    private readonly columns: readonly StagingColumn[],
    private readonly indexes: readonly ResolvedIndex[],
  ) {
    this.staging = stagedTableName(options.table);
    this.schema = options.schema ?? 'main';
    this.stagingRelation = qualifiedName(this.schema, this.staging);
    const quote = seedQuoteColumns(options.quoteColumns, options.displayPath);
    this.columnSql = columns.map((c) => seedColumnSql(c.name, quote));
    // Checked against a temp relation of the same name: prepared, never run, and never one that exists.
    if (!quote) checkBareColumns(db, dialect.tempRelation(this.staging), columns.map((c) => c.name), options.displayPath);
    db.begin();
    try {
      options.afterBegin?.(db);
      const leftover = relationKind(db, this.staging, this.schema);
      if (leftover) this.exec(dialect.dropRelation(leftover, this.stagingRelation));
      for (const index of indexes) this.dropIndexOfOldTable(index.name);
      this.exec(dialect.createTable(this.stagingRelation, columns.map((c, i) => `${this.columnSql[i]!} ${c.type}`).join(', ')));
      this.writer = rowWriter(db, this.stagingRelation, this.columnSql, columns);
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  /** Data rows added so far. */
  get rows(): number {
    return this.writer.rows;
  }

  /** The SQL types the staging table was created with. */
  get types(): string[] {
    return this.columns.map((c) => c.type);
  }

  /** The inferred classes its rows are written by (undefined for a declared column). */
  get classes(): (ValueClass | undefined)[] {
    return this.columns.map((c) => c.cls);
  }

  /** Add one data record (exactly `width` fields; '' and 'null' load as NULL); `recordIndex`: its record number in the file. */
  add(record: readonly string[], recordIndex: number): void {
    this.writer.add(record, recordIndex);
  }

  /** Write what is buffered, create the indexes, swap the table in, run beforeCommit, COMMIT. */
  finish(): SeedLoadResult {
    const { db, options } = this;
    try {
      this.writer.flush();
      options.onProgress?.({ stage: 'index', bytes: 0, totalBytes: 0 });
      for (const index of this.indexes) {
        const sql = dialect.createIndex({ name: qualifiedName(this.schema, index.name), table: quoteIdentifier(this.staging), columns: index.columns.map(quoteIdentifier).join(', '), unique: index.unique });
        try {
          this.exec(sql);
        } catch (err) {
          throw new ProjectError(`cannot create index ${quoteForMessage(index.name)} on seed ${quoteForMessage(options.table)}: ${errorMessage(err)}`, {
            location: { file: options.displayPath },
          });
        }
      }
      crashPoint();
      this.statements.push(...swapRelation(db, this.staging, options.table, this.schema));
      crashPoint();
      options.beforeCommit?.(db);
      db.commit();
      return { rows: this.writer.rows, columns: this.columns.map((c) => ({ name: c.name, type: c.type })), statements: this.statements };
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  rollback(): void {
    this.db.rollback();
  }

  private exec(sql: string): void {
    this.db.exec(sql);
    this.statements.push(sql);
  }

  /**
   * Index names are global in SQLite: an index of the old table with the name
   * the new table's index will get is dropped (inside the transaction, so a
   * rollback restores it). A same-named object on another table is an error.
   */
  private dropIndexOfOldTable(name: string): void {
    const row = this.db.schemaObject(name, this.schema);
    if (!row) return;
    if (row.type === 'index' && foldIdentifier(row.table) === foldIdentifier(this.options.table)) {
      this.exec(dialect.dropIndex(qualifiedName(this.schema, name)));
      return;
    }
    throw new ProjectError(
      `cannot create index ${quoteForMessage(name)}: the name is already used by ${row.type} on ${quoteForMessage(row.table)}`,
      { location: { file: this.options.displayPath } },
    );
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** COPY where the connection has a bulk path (PostgreSQL), else multi-row INSERTs (SQLite). */
function rowWriter(db: Warehouse, relation: string, columnSql: readonly string[], columns: readonly StagingColumn[]): SeedRowWriter {
  if (db.copyIn) return new SeedCopyWriter(db as Warehouse & { copyIn: NonNullable<Warehouse['copyIn']> }, relation, columnSql, columns.map((c) => c.name));
  return new SeedInsertWriter(db, relation, columnSql, columns);
}

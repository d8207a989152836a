import type { BindParameters, PreparedStatement, RunResult } from '../connection.js';
import { outerComments } from '../outer-comments.js';
import type { PgResult } from './pg-sync-client.js';

/** What a prepared statement needs of its connection. */
export interface PgStatementRunner {
  query(sql: string, params: BindParameters, rowMode?: 'array'): PgResult;
  run(sql: string, ...params: BindParameters): RunResult;
  get<Row>(sql: string, ...params: BindParameters): Row | undefined;
  all<Row>(sql: string, ...params: BindParameters): Row[];
  value(sql: string, ...params: BindParameters): unknown;
  values(sql: string, ...params: BindParameters): unknown[];
  /** One statement posted without waiting for its answer (read, and its error raised, with the next call's). */
  post(sql: string, ...params: BindParameters): void;
}

/** A drop of a table in the session's own temp schema (the tool's scratch tables: staged rows, probes). */
const SCRATCH_DROP = /^\s*drop\s+table\s+(if\s+exists\s+)?pg_temp\."(?:[^"]|"")+"\s*;?\s*$/i;

/**
 * A prepared statement on PostgreSQL: its text, run through the connection
 * each time (the server plans an unnamed statement per call; the seed and
 * ledger paths that run one statement many times batch their rows instead).
 */
export class PgStatement<Row> implements PreparedStatement<Row> {
  private described: PgResult | undefined;

  constructor(private readonly connection: PgStatementRunner, private readonly sql: string) {}

  /** Whether it yields rows: a query, or a statement with RETURNING (read off the text: PostgreSQL describes a statement only by running it). */
  get returnsRows(): boolean {
    const head = this.sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '').slice(0, 12).toLowerCase();
    return /^(select|with|values|table|show|explain)\b/.test(head) || /\breturning\b/i.test(this.sql);
  }

  /** The column names, from running it once (kept for the next rows() without parameters). */
  columnNames(): string[] {
    this.described = this.connection.query(this.sql, [], 'array');
    return this.described.fields;
  }

  run(...params: BindParameters): RunResult {
    // Nothing is read from dropping a scratch table (no rows change, no other session sees it): posted, no round trip of its own.
    if (params.length === 0 && SCRATCH_DROP.test(outerComments(this.sql).core)) {
      this.connection.post(this.sql);
      return { changes: 0, lastInsertRowid: 0 };
    }
    return this.connection.run(this.sql, ...params);
  }

  get(...params: BindParameters): Row | undefined {
    return this.connection.get<Row>(this.sql, ...params);
  }

  all(...params: BindParameters): Row[] {
    return this.connection.all<Row>(this.sql, ...params);
  }

  iterate(...params: BindParameters): IterableIterator<Row> {
    return this.all(...params)[Symbol.iterator]();
  }

  value(...params: BindParameters): unknown {
    return this.connection.value(this.sql, ...params);
  }

  values(...params: BindParameters): unknown[] {
    return this.connection.values(this.sql, ...params);
  }

  rows(...params: BindParameters): unknown[][] {
    const kept = params.length === 0 ? this.described : undefined;
    this.described = undefined;
    return (kept ?? this.connection.query(this.sql, params, 'array')).rows as unknown[][];
  }
}


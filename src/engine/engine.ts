import type { Connection, OpenOptions } from './connection.js';
import type { Dialect } from './dialect.js';
import type { RelationLocks } from './relation-locks.js';

/**
 * A warehouse engine: the SQL dialect the tool writes for it and the way to
 * open a connection to it. Everything that speaks an engine's SQL dialect or
 * its driver's API goes through this seam (src/engine/sqlite/ is the first
 * implementation, chosen in current-engine.ts); the rest of the code never
 * imports a driver.
 *
 * The interface is synchronous, on purpose. Templates call `run_query` and
 * `statement` synchronously (as dbt does), and a publish (its statements,
 * checks and ledger write) is one synchronous transaction. An engine whose
 * driver is asynchronous (PostgreSQL, next) runs the driver on a worker
 * thread and blocks on Atomics.wait for each answer (the synckit pattern),
 * so callers keep this synchronous interface.
 */
export interface Engine {
  /** 'sqlite', ... */
  readonly name: string;
  readonly dialect: Dialect;
  /** Open (or create, unless read-only) the warehouse at `path`; errors are the driver's own. */
  open(path: string, options: OpenOptions): Connection;
  /** Whether an error says another connection holds the lock this one waited for (the busy timeout ran out). */
  isBusyError(err: unknown): boolean;
  /** Whether an error is a native MERGE's refusal of an existing row matched by two new rows (engines with MERGE). */
  isDoubleMatchError?(err: unknown): boolean;
  /** Whether `path` names a warehouse with no file of its own on disk (in memory, or on a server): nothing to create. */
  isInMemory(path: string): boolean;
  /** A failure to open, as one message for the user (which server, database and user: never a secret) and a hint. */
  explainOpenError?(err: unknown, path: string): { message: string; hint?: string } | undefined;
  /**
   * The address of the same database working in another schema (a scratch copy's: a replay's), for an
   * engine whose schemas are names in one database; absent where a warehouse is a file (SQLite).
   */
  inSchema?(path: string, schema: string): string;
  /** An error met on an open connection that is the user's to act on (connection lost, privilege refused), explained as explainOpenError does; undefined for others. */
  explainError?(err: unknown): { message: string; hint?: string } | undefined;
  /**
   * Present when several connections write the warehouse at once (a server
   * engine): each publish then locks only the relation it writes, so runs
   * on different models, and a run's independent nodes (--threads), proceed
   * side by side. Absent where one writer holds the whole warehouse (SQLite).
   */
  readonly relationLocks?: RelationLocks;
}

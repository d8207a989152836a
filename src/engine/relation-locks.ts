import type { Connection } from './connection.js';

/** A session holding a relation's lock, as the server reports it. */
export interface RelationLockHolder {
  /** The server's process id of the session. */
  readonly backendPid: number;
  /** The session's application name (a mini-dbt run tags it with its invocation id). */
  readonly applicationName: string;
  readonly user: string;
  /** Where it connected from (an address, or 'local socket'). */
  readonly client: string;
  /** When its current transaction began (null outside one). */
  readonly since: string | null;
}

/**
 * Locks on relation names for an engine whose writers work side by side
 * (engine.ts `relationLocks`). A node holds its relation's lock while it
 * publishes, so two runs never publish the same relation at once; the
 * server's own row and table locks do the rest. A lock is the session's:
 * a connection that dies lets it go.
 */
export interface RelationLocks {
  /** Wait for the lock on `relation` (up to the connection's busy timeout: then the engine's busy error). */
  acquire(db: Connection, relation: string): void;
  release(db: Connection, relation: string): void;
  /** The sessions holding `relation`'s lock now. */
  holders(db: Connection, relation: string): RelationLockHolder[];
  /** Mark the connection's session with the run's invocation id, so a waiter can name the run holding a lock. */
  tagSession(db: Connection, invocationId: string): void;
  /** The invocation id a session was marked with (from its application name), if any. */
  invocationOf(holder: RelationLockHolder): string | undefined;
}

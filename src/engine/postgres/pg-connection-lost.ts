/**
 * Whether an error the `pg` driver raised on an open connection means the
 * connection is gone (rather than one statement failing): the server ended
 * the session (class 57P: an administrator's pg_terminate_backend, a shutdown,
 * a crash), a connection exception (class 08), the socket closed or reset,
 * or the driver refusing a client that already lost its connection.
 */
export function isPgConnectionGone(error: { readonly code?: unknown; readonly message?: unknown }): boolean {
  const code = typeof error.code === 'string' ? error.code : '';
  if (/^57P0[1-3]$/.test(code) || /^08/.test(code)) return true;
  if (['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT'].includes(code)) return true;
  const message = typeof error.message === 'string' ? error.message : '';
  return /Connection terminated|not queryable|connection thread stopped|no answer from the PostgreSQL connection thread/i.test(message);
}

/** Where a connection goes, for messages: never the password. */
export interface PgServerCoordinates {
  readonly host?: unknown;
  readonly port?: unknown;
  readonly database?: unknown;
  readonly user?: unknown;
}

/** "PostgreSQL at host:port (database 'd', user 'u')". */
export function pgServerLabel(at: PgServerCoordinates): string {
  return `PostgreSQL at ${String(at.host)}:${String(at.port)} (database '${String(at.database)}', user '${String(at.user)}')`;
}

/** "user 'u' on PostgreSQL at host:port, database 'd'": who was refused. */
export function pgUserLabel(at: PgServerCoordinates): string {
  return `user '${String(at.user)}' on PostgreSQL at ${String(at.host)}:${String(at.port)}, database '${String(at.database)}'`;
}

/**
 * The connection to a server warehouse went away in the middle of a command:
 * the server restarted or shut down, an administrator ended the session, the
 * network dropped. The server rolls back whatever the session had not
 * committed, so every table is as the last commit left it; nothing more can
 * run on this connection. Engines with a file (SQLite) never raise it.
 */
export class ConnectionLostError extends Error {
  /** The driver's or the server's code (a SQLSTATE such as 57P01, or ECONNRESET). */
  readonly code?: string;

  /** `server` names where (host, port, database, user: never the password); `reason` is what the driver said. */
  constructor(readonly server: string, readonly reason: string, code?: string) {
    super(`the connection to ${server} was lost (${reason}); the server rolled back what had not been committed`);
    this.name = 'ConnectionLostError';
    if (code !== undefined) this.code = code;
  }
}

export function isConnectionLost(err: unknown): err is ConnectionLostError {
  return err instanceof ConnectionLostError;
}

import { describe, expect, it } from 'vitest';
import { ConnectionLostError } from '../../../src/engine/connection-lost.js';
import { isPgConnectionGone, pgServerLabel } from '../../../src/engine/postgres/pg-connection-lost.js';
import { explainPgError, explainPgOpenError } from '../../../src/engine/postgres/pg-open-error.js';
import { PgError } from '../../../src/engine/postgres/pg-sync-client.js';
import type { PostgresSettings } from '../../../src/project/target.js';

/**
 * What the user reads when PostgreSQL cannot be reached, refuses, or goes
 * away (issue 17, "Bad input"): where (host, port, database, user), never
 * the password, and the fix. The same paths against a real server are in
 * test/integration/pg-bad-input.test.ts.
 */
const settings: PostgresSettings = { host: 'db.example', port: 6543, user: 'analyst', password: 's3cr3t-pw', dbname: 'shop', connectTimeout: 7 };
const where = "PostgreSQL at db.example:6543, database 'shop', user 'analyst'";

describe('a lost PostgreSQL connection is told apart from a failed statement', () => {
  it('knows the server ending the session, connection exceptions, reset sockets and the driver giving up', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08003', 'ECONNRESET', 'EPIPE']) expect(isPgConnectionGone({ code, message: 'x' }), code).toBe(true);
    expect(isPgConnectionGone({ message: 'Connection terminated unexpectedly' })).toBe(true);
    expect(isPgConnectionGone({ message: 'Client has encountered a connection error and is not queryable' })).toBe(true);
    for (const code of ['42P01', '23505', '42501', '55P03', '40P01']) expect(isPgConnectionGone({ code, message: 'x' }), code).toBe(false);
  });

  it('says where it was lost, and that nothing uncommitted was kept', () => {
    const lost = new ConnectionLostError(pgServerLabel({ host: 'db.example', port: 6543, database: 'shop', user: 'analyst' }), 'terminating connection due to administrator command', '57P01');
    expect(lost.message).toBe("the connection to PostgreSQL at db.example:6543 (database 'shop', user 'analyst') was lost (terminating connection due to administrator command); the server rolled back what had not been committed");
    expect(explainPgError(lost, settings)).toEqual({ message: lost.message, hint: expect.stringContaining('nothing uncommitted was kept') });
  });
});

describe('PostgreSQL errors the user can act on, in one line', () => {
  it('explains a refused privilege with what to grant', () => {
    const err = new PgError({ code: '42501', message: "permission denied for schema marts (as user 'analyst' on PostgreSQL at db.example:6543, database 'shop')" });
    expect(explainPgError(err, settings)).toEqual({ message: `permission denied on ${where}: permission denied for schema marts`, hint: 'grant usage, create on schema marts to "analyst" (as its owner), or choose a schema the user owns' });
  });

  it('explains a read-only server and a full disk; leaves other errors to be reported as they are', () => {
    expect(explainPgError(new PgError({ code: '25006', message: 'cannot execute CREATE TABLE in a read-only transaction' }), settings)?.message).toBe(`${where} is read-only (cannot execute CREATE TABLE in a read-only transaction)`);
    expect(explainPgError(new PgError({ code: '53100', message: 'could not extend file: No space left on device' }), settings)?.hint).toContain('free disk space');
    expect(explainPgError(new PgError({ code: '42P01', message: 'relation "x" does not exist' }), settings)).toBeUndefined();
    expect(explainPgError(new Error('a bug'), settings)).toBeUndefined();
  });

  it('never repeats the password, even when a driver message carries it', () => {
    const err = Object.assign(new Error('could not connect with password s3cr3t-pw'), { code: 'XX000' });
    const explained = explainPgOpenError(err, settings);
    expect(explained.message).toBe(`cannot connect to ${where}: could not connect with password ***`);
    expect(JSON.stringify(explained)).not.toContain('s3cr3t-pw');
  });

  it('explains the open errors: refused, unknown host, wrong password, missing database, no CREATE on the database', () => {
    const open = (code: string, message = 'x') => explainPgOpenError(Object.assign(new Error(message), { code }), settings).message;
    expect(open('ECONNREFUSED')).toBe(`cannot connect to ${where}: the server refused the connection (nothing listens there)`);
    expect(open('ENOTFOUND')).toBe(`cannot connect to ${where}: host 'db.example' is not known`);
    expect(open('28P01', 'password authentication failed for user "analyst"')).toBe(`cannot connect to ${where}: the server refused the password or the user (password authentication failed for user "analyst")`);
    expect(open('3D000')).toBe(`cannot connect to ${where}: database 'shop' does not exist`);
    expect(explainPgOpenError(Object.assign(new Error('permission denied for database shop'), { code: '42501' }), settings).hint).toContain('create schema <schema> authorization "analyst"');
    expect(open('XX000', 'timeout expired')).toBe(`cannot connect to ${where}: no answer within 7 s`);
  });
});

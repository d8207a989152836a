import type { PostgresSettings } from '../../project/target.js';
import { isConnectionLost } from '../connection-lost.js';
import type { PgError } from './pg-sync-client.js';

type Explained = { message: string; hint?: string };

/** "PostgreSQL at host:port, database 'd', user 'u'": never the password. */
function whereOf(settings: PostgresSettings): string {
  return `PostgreSQL at ${settings.host}:${settings.port}, database '${settings.dbname}', user '${settings.user}'`;
}

/** The driver's words, with the password (should it ever appear there) masked. */
function reasonOf(err: unknown, settings: PostgresSettings): string {
  const text = err instanceof Error ? err.message : String(err);
  return settings.password === '' ? text : text.split(settings.password).join('***');
}

/** What to grant for a refused privilege, read off the server's "permission denied for <kind> <name>". */
function grantHint(reason: string, settings: PostgresSettings): string {
  const user = `"${settings.user}"`;
  const schema = /permission denied for schema (\S+)/.exec(reason)?.[1];
  if (schema) return `grant usage, create on schema ${schema} to ${user} (as its owner), or choose a schema the user owns`;
  if (/permission denied for database/.test(reason)) {
    return `the target schema does not exist and the user may not create schemas: create it for the user (create schema <schema> authorization ${user}), or grant create on database "${settings.dbname}" to ${user}`;
  }
  const table = /permission denied for (?:table|relation|view|sequence) (\S+)/.exec(reason)?.[1];
  if (table) return `grant the user the privileges it needs on ${table} (or build into a schema it owns)`;
  return 'grant the user CREATE and USAGE on the target schema, or choose a schema it owns';
}

/**
 * Why a PostgreSQL connection could not open, in one line naming the
 * server, port, database and user (never the password), with the fix.
 */
export function explainPgOpenError(err: unknown, settings: PostgresSettings): Explained {
  const where = whereOf(settings);
  const e = err as PgError & { code?: string };
  const reason = reasonOf(err, settings);
  switch (e.code) {
    case 'ECONNREFUSED':
      return { message: `cannot connect to ${where}: the server refused the connection (nothing listens there)`, hint: 'start the server, or check host and port in the profile' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { message: `cannot connect to ${where}: host '${settings.host}' is not known`, hint: 'check host in the profile' };
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { message: `cannot connect to ${where}: the server did not answer (${e.code})`, hint: 'check host, port and the network; connect_timeout sets how long to wait' };
    case '28P01':
    case '28000':
      return { message: `cannot connect to ${where}: the server refused the password or the user (${reason})`, hint: 'check user and password in the profile (env_var() keeps the password out of the file)' };
    case '3D000':
      return { message: `cannot connect to ${where}: database '${settings.dbname}' does not exist`, hint: `create it (createdb ${settings.dbname}), or check dbname in the profile` };
    case '42501':
      return { message: `cannot use ${where}: permission denied (${reason.replace(/ \(as user .*\)$/, '')})`, hint: grantHint(reason, settings) };
    case '57P03':
      return { message: `cannot connect to ${where}: the server is starting up or shutting down (${reason})`, hint: 'wait for the server, then run again' };
    default:
      if (isConnectionLost(err)) return { message: `cannot use ${where}: the connection was lost while opening it (${err.reason})`, hint: 'check the server (its log says why the session ended), then run again' };
      if (/timeout/i.test(reason)) return { message: `cannot connect to ${where}: no answer within ${settings.connectTimeout} s`, hint: 'check host, port and the network; connect_timeout sets how long to wait' };
      return { message: `cannot connect to ${where}: ${reason}` };
  }
}

/**
 * A server error met after the connection opened that is the user's to act
 * on rather than a bug: the connection lost, a privilege refused, a read-only
 * server, a full disk. One message naming where (never the password), with
 * the fix; undefined for anything else (a bug: its stack is shown).
 */
export function explainPgError(err: unknown, settings: PostgresSettings): Explained | undefined {
  const where = whereOf(settings);
  if (isConnectionLost(err)) {
    return { message: err.message, hint: 'nothing uncommitted was kept; check the server (its log says why the session ended), then run again' };
  }
  const e = err as { code?: unknown };
  if (typeof e?.code !== 'string' || !(err instanceof Error)) return undefined;
  const reason = reasonOf(err, settings);
  if (e.code === '42501') return { message: `permission denied on ${where}: ${reason.replace(/ \(as user .*\)$/, '')}`, hint: grantHint(reason, settings) };
  if (e.code === '25006') return { message: `${where} is read-only (${reason})`, hint: 'connect to the primary server, not a standby' };
  if (e.code === '3D000') return { message: `database '${settings.dbname}' does not exist on ${where}`, hint: 'check dbname in the profile' };
  if (/^53/.test(e.code)) return { message: `${where} is out of resources (${reason})`, hint: 'free disk space or connections on the server, then run again' };
  return undefined;
}

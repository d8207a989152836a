import type { PostgresSettings } from '../../project/target.js';
import { PgError } from './pg-sync-client.js';

/**
 * Why a PostgreSQL connection could not open, in one line naming the
 * server, port, database and user (never the password), with the fix.
 */
export function explainPgOpenError(err: unknown, settings: PostgresSettings): { message: string; hint?: string } {
  const where = `PostgreSQL at ${settings.host}:${settings.port}, database '${settings.dbname}', user '${settings.user}'`;
  const e = err as PgError & { code?: string };
  const reason = (err instanceof Error ? err.message : String(err)).replace(settings.password === '' ? /$^/ : new RegExp(settings.password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), '***');
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
      return { message: `cannot use ${where}: permission denied (${reason})`, hint: 'grant the user CREATE and USAGE on the target schema, or choose a schema it owns' };
    default:
      if (/timeout/i.test(reason)) return { message: `cannot connect to ${where}: no answer within ${settings.connectTimeout} s`, hint: 'check host, port and the network; connect_timeout sets how long to wait' };
      return { message: `cannot connect to ${where}: ${reason}` };
  }
}

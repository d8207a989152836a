import { didYouMean } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import type { ResolvedTarget, Where } from './load-target.js';
import { postgresLocator, type PostgresSettings } from './target.js';

const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** The keys a postgres output may have (dbt-postgres's, and dbt's own `type` and `threads`). */
const KNOWN_KEYS = [
  'type', 'threads', 'host', 'port', 'user', 'password', 'pass', 'dbname', 'database', 'schema', 'sslmode', 'keepalives_idle', 'connect_timeout',
  'search_path', 'role', 'sslcert', 'sslkey', 'sslrootcert', 'application_name', 'retries', 'retry_all', 'login_timeout', 'query_timeout',
];

/**
 * A dbt-postgres output (`type: postgres`): host, port, user, password
 * (or pass), dbname (or database), schema, threads; optional sslmode,
 * keepalives_idle, connect_timeout, search_path, role, sslcert, sslkey,
 * sslrootcert, application_name. The warehouse's "path" is its locator
 * (postgres://user@host:port/dbname), never the password.
 */
export function postgresTarget(output: Record<string, unknown>, where: Where): ResolvedTarget {
  const at = (key: string) => ({ file: where.file, line: where.yaml.lineOf([where.profileName, 'outputs', where.targetName, key]) ?? where.yaml.lineOf([where.profileName, 'outputs', where.targetName]) });
  const label = `target '${where.targetName}' of profile '${where.profileName}'`;
  const missing = (keys: readonly string[]): ProjectError => {
    // A misspelt key (`dbame:`) is the likely cause: point at it.
    const typo = Object.keys(output).find((k) => !KNOWN_KEYS.includes(k) && keys.some((wanted) => didYouMean(k, [wanted]) !== undefined));
    if (typo !== undefined) return new ProjectError(`${label} (type postgres) needs \`${keys[0]}\`; it has \`${typo}\`, which dbt-postgres does not know`, { location: at(typo), hint: `rename it to ${keys[0]}` });
    return new ProjectError(`${label} (type postgres) needs \`${keys[0]}\``, { location: at('type'), hint: `dbt-postgres's required keys: host, port, user, password, dbname, schema` });
  };
  const text = (keys: readonly string[], options: { readonly mayBeEmpty?: boolean } = {}): string => {
    const key = keys.find((k) => output[k] !== undefined && output[k] !== null);
    if (key === undefined) throw missing(keys);
    const value = String(output[key]);
    // An empty host would quietly mean the local socket, an empty user or dbname the login's name: say so instead.
    if (value.trim() === '' && !options.mayBeEmpty) throw new ProjectError(`${label}: ${key} cannot be empty`, { location: at(key), hint: key === 'host' ? 'the server\'s name or address, e.g. localhost' : undefined });
    return value;
  };
  const whole = (key: string, fallback: number | undefined, min: number): number | undefined => {
    if (output[key] === undefined || output[key] === null) return fallback;
    const raw = output[key];
    // A number, or digits (what env_var() renders): not `true`, not '0x10'.
    const n = typeof raw === 'number' || (typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw)) ? Number(raw) : NaN;
    if (!Number.isInteger(n) || n < min) throw new ProjectError(`${label}: ${key} must be a whole number of at least ${min}, not ${JSON.stringify(output[key])}`, { location: at(key) });
    return n;
  };
  const port = whole('port', undefined, 1);
  if (port === undefined) throw missing(['port']);
  if (port > 65535) throw new ProjectError(`${label}: port must be at most 65535, not ${port}`, { location: at('port') });
  const sslmode = output.sslmode === undefined ? undefined : String(output.sslmode);
  if (sslmode !== undefined && !SSL_MODES.includes(sslmode)) throw new ProjectError(`${label}: sslmode '${sslmode}' is not one of ${SSL_MODES.join(', ')}`, { location: at('sslmode') });
  const schema = text(['schema']);
  const optional = (key: string): string | undefined => (output[key] === undefined || output[key] === null ? undefined : String(output[key]));
  const settings: PostgresSettings = {
    host: text(['host']),
    port,
    user: text(['user']),
    password: text(['password', 'pass'], { mayBeEmpty: true }),
    dbname: text(['dbname', 'database']),
    sslmode,
    keepalivesIdle: whole('keepalives_idle', undefined, 0),
    connectTimeout: whole('connect_timeout', 10, 0)!,
    searchPath: optional('search_path'),
    role: optional('role'),
    sslcert: optional('sslcert'),
    sslkey: optional('sslkey'),
    sslrootcert: optional('sslrootcert'),
    applicationName: optional('application_name'),
  };
  const threads = whole('threads', 1, 1)!;
  return {
    mainPath: postgresLocator(settings),
    target: { name: where.targetName, profileName: where.profileName, profilesFile: where.file, type: 'postgres', schema, threads, schemaPaths: {}, customSchemas: true, postgres: settings },
  };
}

import { readFileSync } from 'node:fs';
import type { PostgresSettings } from '../../project/target.js';

/**
 * The `pg` driver's connection options for dbt-postgres's profile keys.
 * sslmode follows libpq where the driver can: disable and allow connect in
 * the clear, prefer too (the driver cannot fall back from TLS, and a local
 * server rarely has it), require encrypts without checking the certificate,
 * verify-ca and verify-full check it.
 */
export function pgClientConfig(settings: PostgresSettings): Record<string, unknown> {
  const mode = settings.sslmode ?? 'prefer';
  const files = {
    ...(settings.sslrootcert ? { ca: readFileSync(settings.sslrootcert, 'utf8') } : {}),
    ...(settings.sslcert ? { cert: readFileSync(settings.sslcert, 'utf8') } : {}),
    ...(settings.sslkey ? { key: readFileSync(settings.sslkey, 'utf8') } : {}),
  };
  const ssl = mode === 'require' ? { rejectUnauthorized: false, ...files }
    : mode === 'verify-ca' ? { rejectUnauthorized: true, checkServerIdentity: () => undefined, ...files }
      : mode === 'verify-full' ? { rejectUnauthorized: true, ...files }
        : false;
  return {
    host: settings.host,
    port: settings.port,
    user: settings.user,
    password: settings.password,
    database: settings.dbname,
    ssl,
    connectionTimeoutMillis: settings.connectTimeout * 1000,
    ...(settings.keepalivesIdle !== undefined && settings.keepalivesIdle > 0 ? { keepAlive: true, keepAliveInitialDelayMillis: settings.keepalivesIdle * 1000 } : { keepAlive: true }),
    application_name: settings.applicationName ?? 'mini-dbt',
  };
}

/** Which target a connection was opened for: released connections are reused only for the same settings (pg-sync-client.ts). */
export function pgConnectionKey(settings: PostgresSettings): string {
  return JSON.stringify(settings);
}

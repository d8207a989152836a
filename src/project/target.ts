/**
 * The target a command runs against: dbt's profile output, chosen by
 * `--profile` / the project's `profile:` and `--target` / the profile's
 * `target:` (src/project/load-target.ts). Without a profiles.yml the target
 * is the project's own database file, with every relation in main.
 */
export interface Target {
  /** `target.name` in templates ('dev' without a profile, as dbt's docs name the usual one). */
  readonly name: string;
  /** The profile it came from; undefined without a profiles.yml. */
  readonly profileName?: string;
  /** The profiles.yml it was read from. */
  readonly profilesFile?: string;
  /** The adapter type (`sqlite`). */
  readonly type: string;
  /** The target's schema: where models without a custom schema are built (`main`). */
  readonly schema: string;
  readonly threads: number;
  /** Schemas attached when the warehouse opens (dbt-sqlite's `schemas_and_paths`, main excepted), absolute paths. */
  readonly schemaPaths: Readonly<Record<string, string>>;
  /** Where a schema not in schemaPaths gets its file (`<dir>/<schema>.db`), created on demand. */
  readonly schemaDirectory?: string;
  /**
   * Whether `schema` configs and source schemas place relations in other schemas: true with a
   * profile; without one every relation is in main (one file), as before profiles existed.
   */
  readonly customSchemas: boolean;
  /** A `type: postgres` output's connection (dbt-postgres's keys); undefined for SQLite. */
  readonly postgres?: PostgresSettings;
}

/** How to reach a PostgreSQL database: dbt-postgres's profile keys, rendered (env_var() resolved). */
export interface PostgresSettings {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly dbname: string;
  /** libpq's sslmode: disable, allow, prefer, require, verify-ca, verify-full. */
  readonly sslmode?: string;
  /** Seconds of idle before TCP keepalives start (0: the system's default). */
  readonly keepalivesIdle?: number;
  /** Seconds to wait for the connection (dbt-postgres's default 10). */
  readonly connectTimeout: number;
  readonly searchPath?: string;
  readonly role?: string;
  readonly sslcert?: string;
  readonly sslkey?: string;
  readonly sslrootcert?: string;
  readonly applicationName?: string;
}

/** Where a PostgreSQL target's warehouse is, for messages: never the password. */
export function postgresLocator(settings: PostgresSettings): string {
  return `postgres://${settings.user}@${settings.host}:${settings.port}/${settings.dbname}`;
}

/** The target of a project without a profiles.yml. */
export const FILE_TARGET: Target = { name: 'dev', type: 'sqlite', schema: 'main', threads: 1, schemaPaths: {}, customSchemas: false };

import { join, resolve } from 'node:path';
import type { Target } from '../project/target.js';

/**
 * Where a SQLite target's schemas live, as manifest.json's metadata records
 * it (`sqlite_warehouse`): the main file and dbt-sqlite's schemas_and_paths
 * and schema_directory, as absolute paths. dbt-sqlite's relations are only
 * schema-qualified (`"main"."orders"`), so a manifest read as --defer's state
 * needs this to find the files its relations are in (api/defer-state.ts).
 * Undefined on PostgreSQL, whose schemas are names in one database.
 */
export interface SqliteWarehouseFiles {
  readonly main: string;
  readonly schemas_and_paths: Readonly<Record<string, string>>;
  readonly schema_directory: string | null;
}

export function sqliteWarehouseFiles(target: Target, databasePath: string): SqliteWarehouseFiles | undefined {
  if (target.postgres) return undefined;
  return {
    main: resolve(databasePath),
    schemas_and_paths: Object.fromEntries(Object.entries(target.schemaPaths).map(([name, path]) => [name, resolve(path)])),
    schema_directory: target.schemaDirectory === undefined ? null : resolve(target.schemaDirectory),
  };
}

/** The file a schema of those recorded is in (main, a schemas_and_paths entry, else `<schema_directory>/<schema>.db`); undefined when none places it. */
export function schemaFile(files: SqliteWarehouseFiles, schema: string): string | undefined {
  if (schema === 'main') return files.main;
  const named = files.schemas_and_paths[schema];
  if (named !== undefined) return named;
  return files.schema_directory === null ? undefined : join(files.schema_directory, `${schema}.db`);
}

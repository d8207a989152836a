import { join } from 'node:path';

/**
 * A profiles.yml as a dbt-sqlite user writes it (its `schemas_and_paths` and `schema_directory`): the
 * `main` schema in `<dir>/warehouse.db`, other schemas as files under `<dir>/schemas`. For running
 * real dbt projects unchanged (their integration_tests projects name their own profile and target).
 */
export function dbtSqliteProfile(dir: string, profile: string, target: string): string {
  return `${profile}:
  target: ${target}
  outputs:
    ${target}:
      type: sqlite
      threads: 1
      database: database
      schema: main
      schemas_and_paths:
        main: ${join(dir, 'warehouse.db')}
      schema_directory: ${join(dir, 'schemas')}
`;
}

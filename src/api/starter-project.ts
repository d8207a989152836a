/**
 * The files `init` writes: dbt's starter project (dbt_project.yml with `profile:`,
 * two example models and their tests, the empty seeds/, macros/ and tests/
 * folders) and a dbt-sqlite profile, as text by project-relative path.
 */

/** A profile name, a project name: letters, digits and underscores, not starting with a digit (dbt's rule). */
export const PROJECT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function starterProjectFiles(name: string): Record<string, string> {
  return {
    'dbt_project.yml': `# A mini-dbt (and dbt) project. mini-dbt reads dbt_project.yml when there is no project.yml.
name: ${name}
version: '1.0.0'

# The profile in profiles.yml (here, the project folder; or --profiles-dir, DBT_PROFILES_DIR, ~/.dbt)
# that says which database files the project builds into.
profile: ${name}

model-paths: ["models"]
seed-paths: ["seeds"]
macro-paths: ["macros"]
test-paths: ["tests"]
target-path: "target"

# Configs by folder: every model under models/example/ is a view unless it says otherwise.
models:
  ${name}:
    example:
      +materialized: view
`,
    'models/example/my_first_dbt_model.sql': `-- Your first model. A config() in the file overrides dbt_project.yml: this one is a table.
{{ config(materialized='table') }}

with source_data as (
    select 1 as id
    union all
    select null as id
)

select *
from source_data
-- The tests in schema.yml say id is never null: take this line out and \`mini-dbt build\` fails the not_null test.
where id is not null
`,
    'models/example/my_second_dbt_model.sql': `-- Your second model: a view on the first. ref() names it, and orders the build after it.
select *
from {{ ref('my_first_dbt_model') }}
where id = 1
`,
    'models/example/schema.yml': `version: 2

models:
  - name: my_first_dbt_model
    description: "A starter model"
    columns:
      - name: id
        description: "The primary key of this table"
        data_tests:
          - unique
          - not_null

  - name: my_second_dbt_model
    description: "A starter model built on the first"
    columns:
      - name: id
        description: "The primary key of this table"
        data_tests:
          - unique
          - not_null
`,
    'seeds/.gitkeep': '',
    'macros/.gitkeep': '',
    'tests/.gitkeep': '',
    '.gitignore': 'target/\n*.db\n*.db-shm\n*.db-wal\nschemas/\n',
  };
}

/** A dbt-sqlite profile (its keys: schema, schemas_and_paths, schema_directory) with one `dev` output. */
export function starterProfile(name: string): string {
  return `# dbt-sqlite's keys. mini-dbt finds this file in the project folder (or --profiles-dir, DBT_PROFILES_DIR, ~/.dbt).
${name}:
  target: dev
  outputs:
    dev:
      type: sqlite
      threads: 1
      database: database         # required by dbt-sqlite, not used
      schema: main               # where models without a custom schema are built
      schemas_and_paths:
        main: ${name}.db         # the main schema's file, relative to the project folder
      schema_directory: schemas  # other schemas (+schema: marts) get <schema>.db here
`;
}

import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';
import { succeedingRun } from '../support/succeeding-run.js';
import { run as apiRun } from '../../src/api/run.js';

/**
 * Conformance with dbt's model contracts and constraints, modelled on
 * dbt-tests-adapter's constraints/test_constraints.py (with the models and yml
 * of constraints/fixtures.py) and dbt-core's configs/test_contract_configs.py
 * and contracts/test_contract_enforcement.py: the preflight (names, number and
 * types of the columns), the DDL a contracted table is built with, a row that
 * breaks a constraint rolling the build back, incremental models, model-level
 * constraints and a quoted column; then the load-time rules.
 */

const table = (body: string) => `{{ config(materialized = "table") }}\n${body}`;
const view = (body: string) => `{{ config(materialized = "view") }}\n${body}`;
const incremental = (body: string) => `{{ config(materialized = "incremental", on_schema_change='append_new_columns') }}\n${body}`;

const BASE = `select\n  1 as id,\n  'blue' as color,\n  '2019-01-01' as date_day\n`;
const WRONG_ORDER = `select\n  'blue' as color,\n  1 as id,\n  '2019-01-01' as date_day\n`;
const WRONG_NAME = `select\n  'blue' as color,\n  1 as error,\n  '2019-01-01' as date_day\n`;
const WITH_NULLS = `select\n  -- null value for 'id'\n  cast(null as {{ dbt.type_int() }}) as id,\n  -- change the color as well (to test rollback)\n  'red' as color,\n  '2019-01-01' as date_day\n`;
const DEPENDS_ON_FK = `-- depends_on: {{ ref('foreign_key_model') }}\n${WRONG_ORDER}`;

const contractedColumns = `    columns:
      - name: id
        data_type: integer
        description: hello
        constraints:
          - type: not_null
          - type: primary_key
          - type: check
            expression: (id > 0)
        data_tests:
          - unique
      - name: color
        data_type: text
      - name: date_day
        data_type: text`;

/** fixtures.model_schema_yml: the four contracted models. */
const MODEL_SCHEMA_YML = `version: 2
models:
${['my_model', 'my_model_wrong_order', 'my_model_wrong_name'].map((name) => `  - name: ${name}
    config:
      contract:
        enforced: true
${contractedColumns}`).join('\n')}
`;

/** MODEL_SCHEMA_YML's contract, for the models named. */
const contractedSchemaYml = (names: readonly string[]) => `version: 2
models:
${names.map((name) => `  - name: ${name}
    config:
      contract:
        enforced: true
${contractedColumns}`).join('\n')}
`;

/** fixtures.model_fk_constraint_schema_yml (my_model and foreign_key_model). */
const FK_SCHEMA_YML = `version: 2
models:
  - name: my_model
    config:
      contract:
        enforced: true
    columns:
      - name: id
        data_type: integer
        description: hello
        constraints:
          - type: not_null
          - type: primary_key
          - type: check
            expression: (id > 0)
          - type: check
            expression: id >= 1
          - type: foreign_key
            to: ref('foreign_key_model')
            to_columns: ["id"]
          - type: unique
        data_tests:
          - unique
      - name: color
        data_type: text
      - name: date_day
        data_type: text
  - name: foreign_key_model
    config:
      contract:
        enforced: true
    columns:
      - name: id
        data_type: integer
        constraints:
          - type: unique
          - type: primary_key
`;

/** fixtures.constrained_model_schema_yml: model-level constraints (the foreign key in its expression form). */
const MODEL_LEVEL_SCHEMA_YML = (fkParent: string) => `version: 2
models:
  - name: my_model
    config:
      contract:
        enforced: true
    constraints:
      - type: check
        expression: (id > 0)
      - type: check
        expression: id >= 1
      - type: primary_key
        columns: [ id ]
      - type: unique
        columns: [ color, date_day ]
        name: strange_uniqueness_requirement
      - type: foreign_key
        columns: [ id ]
        expression: ${fkParent} (id)
    columns:
      - name: id
        data_type: integer
        description: hello
        constraints:
          - type: not_null
        data_tests:
          - unique
      - name: color
        data_type: text
      - name: date_day
        data_type: text
  - name: foreign_key_model
    config:
      contract:
        enforced: true
    columns:
      - name: id
        data_type: integer
        constraints:
          - type: unique
          - type: primary_key
`;

/** fixtures.model_quoted_column_schema_yml. */
const QUOTED_SCHEMA_YML = `version: 2
models:
  - name: my_model
    config:
      contract:
        enforced: true
      materialized: table
    constraints:
      - type: check
        # this one is the on the user
        expression: ("from" = 'blue')
        columns: [ '"from"' ]
    columns:
      - name: id
        data_type: integer
        description: hello
        constraints:
          - type: not_null
        data_tests:
          - unique
      - name: from  # reserved word
        quote: true
        data_type: text
        constraints:
          - type: not_null
      - name: date_day
        data_type: text
`;

/** A contract per model, its one column's data_type given: [model, data_type]. */
const dataTypesYml = (models: readonly (readonly [string, string])[]) => `version: 2
models:
${models.map(([name, dataType]) => `  - name: ${name}
    config:
      contract:
        enforced: true
    columns:
      - name: wrong_data_type_column_name
        data_type: ${dataType}
`).join('')}`;

/** The contract of my_model_data_type alone. */
const dataTypeYml = (dataType: string) => dataTypesYml([['my_model_data_type', dataType]]);

/** The "Failure in model <model>" paragraph of a run's summary (it ends at the blank log line after it). */
function failureOf(out: string, model: string): string {
  const start = out.indexOf(`Failure in model ${model}\n`);
  expect(start, `no failure of ${model} in:\n${out}`).toBeGreaterThanOrEqual(0);
  const rest = out.slice(start);
  const end = rest.search(/\n(\d\d:\d\d:\d\d {2})?\n/);
  return end < 0 ? rest : rest.slice(0, end);
}

/** dbt's _normalize_whitespace. */
function normalized(sql: string): string {
  return sql.replace(/\s+/g, ' ').replace(/\s?([(),])\s?/g, '$1').toLowerCase().trim();
}

/** dbt's _find_and_replace: every token holding `find` becomes `replace`. */
function replaced(sql: string, find: string, replace: string): string {
  return sql.split(/\s+/).filter((t) => t !== '').map((t) => (t.includes(find) ? replace : t)).join(' ');
}

/** The CREATE TABLE and INSERT the run wrote to target/run for the model, with the relations replaced as dbt's test does. */
function builtDdl(p: ConformanceProject, model: string): string {
  const script = readFileSync(join(p.dir, 'target', 'run', projectName(p), 'models', `${model}.sql`), 'utf8');
  // The script's `-- stage` statements: the CREATE TABLE and the INSERT (the checks between them left out).
  const ddl = script.split(/\n\n(?=-- )/).filter((block) => block.startsWith('-- stage\n')).map((block) => block.slice('-- stage\n'.length)).join('\n');
  return normalized(replaced(replaced(ddl, 'my_model', '<model_identifier>'), 'foreign_key_model', '<foreign_key_model_identifier>'));
}

const projectName = (p: ConformanceProject) => /^name:\s*(\S+)/m.exec(readFileSync(join(p.dir, 'dbt_project.yml'), 'utf8'))![1]!;

function failure(p: ConformanceProject, args: readonly string[]): string {
  const run = p.dbt(args);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  return run.stdout + run.stderr;
}

function ok(p: ConformanceProject, args: readonly string[]): string {
  const run = p.dbt(args);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return run.stdout + run.stderr;
}

/** The data types test cases: [the SELECT's value, its contract type, what the mismatch table calls it]. */
function dataTypes(engine: EngineName): [string, string, string][] {
  if (engine === 'postgres') {
    return [
      ['1', 'integer', 'integer'],
      ["'1'", 'text', 'text'],
      ['true', 'bool', 'boolean'],
      ["'2013-11-03 00:00:00-07'::timestamptz", 'timestamptz', 'timestamp with time zone'],
      ["'2013-11-03 00:00:00-07'::timestamp", 'timestamp', 'timestamp without time zone'],
      ["ARRAY['a','b','c']", 'text[]', 'text[]'],
      ['ARRAY[1,2,3]', 'int[]', 'integer[]'],
      ["'1'::numeric", 'numeric', 'numeric'],
      ['\'{"bar": "baz", "balance": 7.77, "active": false}\'::json', 'json', 'json'],
    ];
  }
  // SQLite types a column by its affinity when the expression has one (a cast or a column): see typesMatch.
  return [
    ['cast(1 as integer)', 'integer', 'INT'],
    ["cast('1' as text)", 'text', 'TEXT'],
    ['cast(1.5 as real)', 'real', 'REAL'],
    ['cast(7.77 as numeric)', 'numeric', 'NUM'],
  ];
}

describeEachEngine('contracts: the preflight compares names, number and types of columns (BaseConstraintsColumnsEqual)', (engine) => {
  // One project for the three materializations (a wrong-order and a wrong-name model of each), one run of the
  // wrong-order models and one of the wrong-name ones; each case then reads its own models and its model's failure.
  const kinds = [['table', table], ['view', view], ['incremental', incremental]] as const;
  let p: ConformanceProject;
  let failed: string;
  beforeAll(async () => {
    p = conformanceProject({
      ...Object.fromEntries(kinds.flatMap(([kind, wrap]) => [[`models/my_model_wrong_order_${kind}.sql`, wrap(WRONG_ORDER)], [`models/my_model_wrong_name_${kind}.sql`, wrap(WRONG_NAME)]])),
      'models/constraints_schema.yml': contractedSchemaYml(kinds.flatMap(([kind]) => [`my_model_wrong_order_${kind}`, `my_model_wrong_name_${kind}`])),
    }, 'test', { engine });
    await succeedingRun(p.dir, { select: kinds.map(([kind]) => `my_model_wrong_order_${kind}`) });
    failed = failure(p, ['run', '-s', ...kinds.map(([kind]) => `my_model_wrong_name_${kind}`)]);
  });

  for (const [kind] of kinds) {
    it(`${kind}: the wrong column order passes and the table takes the yml order; a wrong name fails with the mismatch table`, () => {
      expect(p.rows(`my_model_wrong_order_${kind}`)).toEqual([{ id: 1, color: 'blue', date_day: '2019-01-01' }]);
      if (kind !== 'view') expect(p.columns(`my_model_wrong_order_${kind}`)).toEqual(['id', 'color', 'date_day']);
      const out = failureOf(failed, `my_model_wrong_name_${kind}`);
      for (const expected of ['This model has an enforced contract that failed.', 'missing in definition', 'missing in contract']) expect(out).toContain(expected);
      expect(out).toMatch(/\| error +\|[^\n]*\| missing in contract +\|/);
      expect(out).toMatch(/\| id +\| +\| integer +\| missing in definition \|/);
      expect(p.relationType(`my_model_wrong_name_${kind}`)).toBeUndefined();
    });
  }

  it('a column of another type fails with "data type mismatch", naming both types; the same type passes (test__constraints_*_column_data_types)', async () => {
    const p = conformanceProject({ 'models/my_model_data_type.sql': table('select 1 as x'), 'models/constraints_schema.yml': dataTypeYml('integer') }, 'test', { engine });
    p.write('models/constraints_schema.yml', dataTypeYml('numeric'));
    p.write('models/my_model_data_type.sql', table('select cast(1.5 as numeric) as wrong_data_type_column_name'));
    expect(ok(p, ['run', '-s', 'my_model_data_type'])).toContain("Detected columns with numeric type and unspecified precision/scale, this can lead to unintended rounding: ['wrong_data_type_column_name']`");
    // Every type at once, a model each: declared as another type, one run fails every one of them; declared right, one run passes them all.
    const types = dataTypes(engine).map(([value, schemaType, shown], i) => ({ model: `my_model_data_type_${i}`, value, schemaType, shown, wrong: schemaType === 'integer' ? 'text' : 'integer' }));
    for (const t of types) p.write(`models/${t.model}.sql`, table(`select\n  ${t.value} as wrong_data_type_column_name`));
    p.write('models/constraints_schema.yml', dataTypesYml(types.map((t) => [t.model, t.wrong])));
    const models = types.map((t) => t.model);
    const out = failure(p, ['run', '-s', ...models]);
    for (const t of types) {
      const its = failureOf(out, t.model);
      expect(its).toContain('data type mismatch');
      expect(its).toMatch(new RegExp(`\\| wrong_data_type_column_name \\| ${t.shown.replace(/[[\]]/g, '\\$&')} +\\| ${t.wrong}`, 'i'));
    }
    p.write('models/constraints_schema.yml', dataTypesYml(types.map((t) => [t.model, t.schemaType])));
    // Declared right (in process: the exit code and each node's status are the checks).
    const passed = await apiRun({ projectDir: p.dir, select: models, writeArtifacts: false });
    expect(passed.exitCode, passed.results.map((r) => `${r.uniqueId}: ${r.status} ${r.message ?? ''}`).join('\n')).toBe(0);
    expect(Object.fromEntries(passed.results.map((r) => [r.uniqueId, r.status]))).toEqual(Object.fromEntries(models.map((m) => [`model.test.${m}`, 'success'])));
  });
});

describeEachEngine('contracts: the DDL of a contracted table (BaseConstraintsRuntimeDdlEnforcement)', (engine) => {
  for (const [kind, wrap] of [['table', table], ['incremental', incremental]] as const) {
    it(`${kind}: created with the declared types and column constraints, then filled with insert ... select`, () => {
      const p = conformanceProject({
        'models/my_model.sql': wrap(DEPENDS_ON_FK),
        'models/foreign_key_model.sql': table('select 1 as id'),
        'models/constraints_schema.yml': FK_SCHEMA_YML,
      }, 'test', { engine });
      const out = ok(p, ['run', '-s', '+my_model']);
      expect(p.rows('my_model')).toEqual([{ id: 1, color: 'blue', date_day: '2019-01-01' }]);
      expect(builtDdl(p, 'my_model')).toBe(normalized(`
create table <model_identifier> (
    id integer not null primary key check ((id > 0)) check (id >= 1) references <foreign_key_model_identifier> (id) unique,
    color text,
    date_day text
);
insert into <model_identifier> (id, color, date_day)
select id, color, date_day
from (
    -- depends_on: <foreign_key_model_identifier>
    select
        'blue' as color,
        1 as id,
        '2019-01-01' as date_day
) as model_subq;`));
      // SQLite parses a foreign key and, with foreign_keys off, does not check it: dbt's warning says so.
      if (engine === 'sqlite') expect(out).toContain('The constraint type foreign_key is not enforced by sqlite.');
      else expect(out).not.toContain('is not enforced by');
    });
  }

  it('model-level constraints: check, primary key, a named unique and a foreign key by expression (BaseModelConstraintsRuntimeEnforcement)', async () => {
    const p = conformanceProject({
      'models/my_model.sql': table(DEPENDS_ON_FK),
      'models/foreign_key_model.sql': table('select 1 as id'),
      'models/constraints_schema.yml': MODEL_LEVEL_SCHEMA_YML(engine === 'sqlite' ? 'foreign_key_model' : 'public.foreign_key_model'),
    }, 'test', { engine });
    // In process, writing target/run as the CLI does: the DDL it ran is the check, not the CLI's output.
    await succeedingRun(p.dir, { select: ['+my_model'], writeArtifacts: true });
    expect(builtDdl(p, 'my_model')).toBe(normalized(`
create table <model_identifier> (
    id integer not null,
    color text,
    date_day text,
    check ((id > 0)),
    check (id >= 1),
    primary key (id),
    constraint strange_uniqueness_requirement unique (color, date_day),
    foreign key (id) references <foreign_key_model_identifier> (id)
);
insert into <model_identifier> (id, color, date_day)
select id, color, date_day
from (
    -- depends_on: <foreign_key_model_identifier>
    select 'blue' as color, 1 as id, '2019-01-01' as date_day
) as model_subq;`));
    // A second build: on PostgreSQL the named constraint's index (a schema-wide name) is the old table's until the swap.
    await succeedingRun(p.dir, { select: ['my_model'] });
    expect(p.rows('my_model')).toEqual([{ id: 1, color: 'blue', date_day: '2019-01-01' }]);
    // The named unique constraint is enforced: a second row with the same color and day fails, the table is kept.
    p.write('models/my_model.sql', table(`-- depends_on: {{ ref('foreign_key_model') }}\nselect 'blue' as color, 1 as id, '2019-01-01' as date_day union all select 'blue', 2, '2019-01-01'`));
    const out = failure(p, ['run', '-s', 'my_model']);
    expect(out.toLowerCase()).toMatch(/unique|duplicate key/);
    expect(p.rows('my_model')).toEqual([{ id: 1, color: 'blue', date_day: '2019-01-01' }]);
  });

  it('a quoted reserved word as a column, with a model-level check on it (BaseConstraintQuotedColumn)', async () => {
    const p = conformanceProject({
      'models/my_model.sql': `select\n  'blue' as {{ adapter.quote('from') }},\n  1 as id,\n  '2019-01-01' as date_day\n`,
      'models/constraints_schema.yml': QUOTED_SCHEMA_YML,
    }, 'test', { engine });
    await succeedingRun(p.dir, { select: ['my_model'], writeArtifacts: true });
    expect(builtDdl(p, 'my_model')).toBe(normalized(`
create table <model_identifier> (
    id integer not null,
    "from" text not null,
    date_day text,
    check (("from" = 'blue'))
);
insert into <model_identifier> (id, "from", date_day)
select id, "from", date_day
from (
    select
      'blue' as "from",
      1 as id,
      '2019-01-01' as date_day
) as model_subq;`));
    expect(p.rows('my_model')).toEqual([{ id: 1, from: 'blue', date_day: '2019-01-01' }]);
  });

  it('compile shows the DDL a run would run, without building anything', () => {
    const p = conformanceProject({ 'models/my_model.sql': table(BASE), 'models/constraints_schema.yml': MODEL_SCHEMA_YML }, 'test', { engine });
    const out = ok(p, ['compile', '-s', 'my_model']);
    expect(p.relationType('my_model')).toBeUndefined();
    expect(out).toMatch(/create table \S*my_model\S* \(\n {4}id integer not null primary key check \(\(id > 0\)\),\n {4}color text,\n {4}date_day text\n\)/);
    expect(out).toMatch(/insert into \S*my_model\S* \(id, color, date_day\)\nselect id, color, date_day\nfrom \(/);
    // A contract a run would fail: compile says so, in the place of the statements.
    p.write('models/my_model.sql', table(WRONG_NAME));
    expect(ok(p, ['compile', '-s', 'my_model'])).toContain('-- the run stops here, before anything is written:\n--   Compilation Error in model my_model (models/my_model.sql)\n--     This model has an enforced contract that failed.');
  });
});

describeEachEngine('contracts: a row that breaks a constraint fails the model and leaves the previous table (BaseConstraintsRollback)', (engine) => {
  for (const [kind, wrap] of [['table', table], ['incremental', incremental]] as const) {
    it(`${kind}: a NULL id fails on not null, and the table still holds the blue row`, async () => {
      const p = conformanceProject({ 'models/my_model.sql': wrap(BASE), 'models/constraints_schema.yml': MODEL_SCHEMA_YML }, 'test', { engine });
      await succeedingRun(p.dir, { select: ['my_model'] });
      p.write('models/my_model.sql', wrap(WITH_NULLS));
      const out = failure(p, ['run', '-s', 'my_model']);
      expect(out).toMatch(engine === 'postgres' ? /null value in column "id"[\s\S]*violates not-null constraint/ : /NOT NULL constraint failed: [^\n]*\.?id/);
      expect(p.rows('my_model')).toEqual([{ id: 1, color: 'blue', date_day: '2019-01-01' }]);
      // Run again (in process: the node's status is the check), it fails again.
      expect((await apiRun({ projectDir: p.dir, select: ['my_model'], writeArtifacts: false })).results[0]!.status).toBe('error');
    });
  }

  it('incremental: every run checks the contract; a later run whose column changed type fails it (TestIncrementalModelContractEnforcement)', async () => {
    const yml = `models:\n  - name: my_model\n    config:\n      materialized: incremental\n      on_schema_change: append_new_columns\n      contract: {enforced: true}\n    columns:\n      - name: string_column\n        data_type: text\n`;
    const p = conformanceProject({ 'models/my_model.sql': "select cast('some string' as text) as string_column", 'models/schema.yml': yml }, 'test', { engine });
    await succeedingRun(p.dir);
    p.write('models/my_model.sql', 'select cast(123 as integer) as int_column');
    expect(failure(p, ['run'])).toContain('This model has an enforced contract that failed.');
    p.write('models/my_model.sql', "select cast('again' as text) as string_column");
    await succeedingRun(p.dir);
    expect(p.rows('my_model', 'string_column')).toEqual([{ string_column: 'again' }, { string_column: 'some string' }]);
  });

  it('an incremental model with a foreign key to a contracted table runs twice (BaseIncrementalForeignKeyConstraint)', async () => {
    const yml = `version: 2
models:
  - name: raw_numbers
    config:
      contract:
        enforced: true
      materialized: table
    columns:
        - name: n
          data_type: integer
          constraints:
            - type: primary_key
            - type: not_null
  - name: stg_numbers
    config:
      contract:
        enforced: true
      materialized: incremental
      on_schema_change: append_new_columns
      unique_key: n
    columns:
      - name: n
        data_type: integer
        constraints:
          - type: foreign_key
            to: ref('raw_numbers')
            to_columns: [n]
`;
    const p = conformanceProject({ 'models/schema.yml': yml, 'models/raw_numbers.sql': 'select 1 as n', 'models/stg_numbers.sql': "select * from {{ ref('raw_numbers') }}" }, 'test', { engine });
    await succeedingRun(p.dir, { select: ['raw_numbers'] });
    await succeedingRun(p.dir, { select: ['stg_numbers'] });
    await succeedingRun(p.dir, { select: ['stg_numbers'] });
    expect(p.rows('stg_numbers')).toEqual([{ n: 1 }]);
  });
});

describeEachEngine('contracts: what fails before the build (test_contract_configs.py)', (engine) => {
  it("a contract set in config() with no yml columns fails the run: its 'columns' specification is missing", () => {
    const p = conformanceProject({ 'models/my_model.sql': `{{ config(materialized='table', contract={'enforced': true}) }}\n${BASE}` }, 'test', { engine });
    expect(failure(p, ['run'])).toContain("This model has an enforced contract, and its 'columns' specification is missing");
    expect(p.relationType('my_model')).toBeUndefined();
  });

  it('a column without data_type fails the run with dbt\'s column_type_missing wording', () => {
    const yml = `models:\n  - name: my_model\n    config:\n      contract: {enforced: true}\n    columns:\n      - name: id\n        data_type: integer\n      - name: color\n      - name: date_day\n        data_type: text\n`;
    const p = conformanceProject({ 'models/my_model.sql': table(BASE), 'models/schema.yml': yml }, 'test', { engine });
    expect(failure(p, ['run'])).toContain("Please ensure that the column name and data_type are defined within the YAML configuration for the ['color'] column(s).");
  });

  it('contract is dict-merged: enforced in dbt_project.yml, alias_types in yml, the contract still enforced', () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: test\nversion: '1.0'\nprofile: default\nmodels:\n  test:\n    +contract:\n      enforced: true\n",
      'models/my_model.sql': table(WRONG_NAME),
      'models/schema.yml': `models:\n  - name: my_model\n    config:\n      contract: {alias_types: false}\n    columns:\n      - name: id\n        data_type: integer\n      - name: color\n        data_type: text\n      - name: date_day\n        data_type: text\n`,
    }, 'test', { engine });
    expect(failure(p, ['run'])).toContain('missing in contract');
  });

  it("alias_types (on by default): data_type string is the engine's text type; alias_types: false writes string as it is", async () => {
    const yml = (alias: boolean) => `models:\n  - name: my_model\n    config:\n      contract: {enforced: true${alias ? '' : ', alias_types: false'}}\n    columns:\n      - name: id\n        data_type: integer\n      - name: color\n        data_type: string\n      - name: date_day\n        data_type: STRING\n`;
    const p = conformanceProject({ 'models/my_model.sql': table("select 1 as id, cast('blue' as {{ dbt.type_string() }}) as color, cast('2019-01-01' as {{ dbt.type_string() }}) as date_day"), 'models/schema.yml': yml(true) }, 'test', { engine });
    await succeedingRun(p.dir, { writeArtifacts: true });
    expect(p.rows('my_model')).toEqual([{ id: 1, color: 'blue', date_day: '2019-01-01' }]);
    expect(builtDdl(p, 'my_model')).toContain('color text,date_day text');
    p.write('models/schema.yml', yml(false));
    // PostgreSQL has no type string; SQLite takes any name (string has NUMERIC affinity, which a text column does not have).
    expect(failure(p, ['run'])).toMatch(engine === 'postgres' ? /type "string" does not exist/ : /\| color +\| TEXT +\| string +\| data type mismatch \|/);
    expect(p.rows('my_model')).toEqual([{ id: 1, color: 'blue', date_day: '2019-01-01' }]);
  });

  it('load-time errors, exit 2: an incremental contract without append_new_columns or fail; yml without columns; primary keys twice', () => {
    const cases: [string, string, string][] = [
      ['{{ config(materialized="incremental") }}\nselect 1 as id', 'models:\n  - name: my_model\n    config:\n      contract: {enforced: true}\n    columns:\n      - name: id\n        data_type: integer\n',
        "Invalid value for on_schema_change: ignore. Models materialized as incremental with contracts enabled must set on_schema_change to 'append_new_columns' or 'fail'"],
      [table('select 1 as id'), 'models:\n  - name: my_model\n    config:\n      contract: {enforced: true}\n', 'Constraints must be defined in a `yml` schema configuration file like `schema.yml`.'],
      [table('select 1 as id'), 'models:\n  - name: my_model\n    constraints:\n      - type: primary_key\n        columns: [id]\n    columns:\n      - name: id\n        data_type: integer\n        constraints: [{type: primary_key}]\n',
        'Primary key constraints defined at the model level and the columns level.'],
      [table('select 1 as id'), 'models:\n  - name: my_model\n    config:\n      contract: {enforced: true}\n    columns:\n      - name: id\n        data_type: integer\n        constraints: [{type: nonsense}]\n', 'Invalid constraint type on model my_model'],
    ];
    for (const [sql, yml, message] of cases) {
      const p = conformanceProject({ 'models/my_model.sql': sql, 'models/schema.yml': yml }, 'test', { engine });
      const run = p.dbt(['run']);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stdout + run.stderr).toContain(message);
    }
  });

  it('a view with constraints: warned that they are ignored; an ephemeral model is never checked', () => {
    const yml = `models:\n  - name: v\n    config:\n      contract: {enforced: true}\n    columns:\n      - name: id\n        data_type: integer\n        constraints: [{type: not_null}]\n  - name: e\n    config:\n      contract: {enforced: true}\n    columns:\n      - name: other\n        data_type: integer\n`;
    const p = conformanceProject({ 'models/v.sql': view('select 1 as id'), 'models/e.sql': "{{ config(materialized='ephemeral') }}\nselect 1 as id", 'models/t.sql': table("select * from {{ ref('e') }}"), 'models/schema.yml': yml }, 'test', { engine });
    const out = ok(p, ['run']);
    expect(out).toContain("Constraint types are not supported for view materializations and will be ignored.  Set 'warn_unsupported: false' on this constraint to ignore this warning.");
    expect(p.rows('t')).toEqual([{ id: 1 }]);
  });
});

describeEachEngine('contracts on SQLite: values the declared type cannot hold', (engine) => {
  it('text that is not a number in an integer column fails the build, the previous table kept', async () => {
    // SQLite stores a date as text (a date data_type accepts it); PostgreSQL's date would not take the text literal.
    const yml = `models:\n  - name: my_model\n    config:\n      contract: {enforced: true}\n    columns:\n      - name: id\n        data_type: integer\n      - name: color\n        data_type: text\n      - name: date_day\n        data_type: ${engine === 'sqlite' ? 'date' : 'text'}\n`;
    const p = conformanceProject({ 'models/my_model.sql': table(BASE), 'models/schema.yml': yml }, 'test', { engine });
    await succeedingRun(p.dir);
    // '7' is stored as 7 by the integer column (SQLite's affinity), as PostgreSQL would cast a literal; 'seven' cannot be.
    p.write('models/my_model.sql', table("select '7' as id, 'red' as color, '2019-01-02' as date_day"));
    if (engine === 'postgres') {
      expect(failure(p, ['run'])).toContain('data type mismatch');
      return;
    }
    await succeedingRun(p.dir);
    expect(p.rows('my_model')).toEqual([{ id: 7, color: 'red', date_day: '2019-01-02' }]);
    p.write('models/my_model.sql', table("select 'seven' as id, 'green' as color, '2019-01-03' as date_day"));
    expect(failure(p, ['run'])).toContain("contract data type mismatch: column 'id' (data_type integer) holds values SQLite could not store as integer");
    expect(p.rows('my_model')).toEqual([{ id: 7, color: 'red', date_day: '2019-01-02' }]);
  });
});

describeEachEngine('contracts on SQLite: an incremental run\'s new rows take the declared types too', (engine) => {
  it("'8' is written as 8, 'eight' fails the run and leaves the table as it was", async () => {
    const yml = `models:\n  - name: inc\n    config:\n      materialized: incremental\n      on_schema_change: fail\n      contract: {enforced: true}\n    columns:\n      - name: id\n        data_type: integer\n        constraints: [{type: not_null}]\n      - name: color\n        data_type: text\n`;
    const model = (id: string) => `select ${id} as id, 'blue' as color`;
    const p = conformanceProject({ 'models/inc.sql': model('1'), 'models/schema.yml': yml }, 'test', { engine });
    await succeedingRun(p.dir);
    p.write('models/inc.sql', model("'8'"));
    if (engine === 'postgres') {
      expect(failure(p, ['run'])).toMatch(/\| id +\| text +\| integer +\| data type mismatch \|/);
      return;
    }
    await succeedingRun(p.dir);
    expect(p.query('select id, typeof(id) as t from inc order by id')).toEqual([{ id: 1, t: 'integer' }, { id: 8, t: 'integer' }]);
    p.write('models/inc.sql', model("'eight'"));
    expect(failure(p, ['run'])).toContain("contract data type mismatch: column 'id' (data_type integer) holds values SQLite could not store as integer (1 value: eight)");
    expect(p.rows('inc', 'id')).toEqual([{ id: 1, color: 'blue' }, { id: 8, color: 'blue' }]);
  });
});

describeEachEngine('contracts on a microbatch model (an incremental materialization: checked, typed and constrained)', (engine) => {
  it('batches build into the contracted table; a NULL id in a later batch fails it, the earlier rows kept; a renamed column fails the preflight', async () => {
    const input = `{{ config(materialized='table', event_time='event_time') }}\nselect 1 as id, '2020-01-01 00:00:00' as event_time\nunion all select 2, '2020-01-02 00:00:00'\nunion all select {{ var('third', 3) }}, '2020-01-03 00:00:00'\n`;
    const mb = (select: string) => `{{ config(materialized='incremental', incremental_strategy='microbatch', on_schema_change='append_new_columns', event_time='event_time', batch_size='day', begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0)) }}\n${select} from {{ ref('input_model') }}\n`;
    const yml = `models:\n  - name: mb\n    config:\n      contract: {enforced: true}\n    columns:\n      - name: id\n        data_type: integer\n        constraints: [{type: not_null}]\n      - name: event_time\n        data_type: text\n`;
    const p = conformanceProject({ 'models/input_model.sql': input, 'models/mb.sql': mb('select id, cast(event_time as text) as event_time'), 'models/schema.yml': yml }, 'test', { engine });
    await succeedingRun(p.dir, { vars: { as_of: '2020-01-02 12:00:00' } });
    expect(p.rows('mb', 'id').map((r) => r.id)).toEqual([1, 2]);
    expect(ok(p, ['compile', '-s', 'mb', '--full-refresh', '--vars', '{as_of: "2020-01-02 12:00:00"}'])).toMatch(/create table \S*mb\S* \(\n {4}id integer not null,\n {4}event_time text\n\)/);
    const third = p.dbt(['run', '--vars', '{as_of: "2020-01-03 12:00:00", third: "null"}']);
    expect(third.code, third.stdout).toBe(1);
    expect(third.stdout.toLowerCase()).toMatch(/not null|not-null/);
    expect(p.rows('mb', 'id').map((r) => r.id)).toEqual([1, 2]);
    p.write('models/mb.sql', mb('select id as other_id, cast(event_time as text) as event_time'));
    expect(failure(p, ['run', '-s', 'mb', '--vars', '{as_of: "2020-01-03 12:00:00"}'])).toContain('This model has an enforced contract that failed.');
    expect(p.rows('mb', 'id').map((r) => r.id)).toEqual([1, 2]);
  });
});

describeEachEngine('contracts: state:modified.contract (dbt\'s same_contract)', (engine) => {
  it('a changed data_type, a new constraint, or a contract now enforced is modified.contract; a description is not', async () => {
    const yml = (idType: string, extra = '', enforced = true) => `models:\n  - name: my_model\n    description: ${extra ? 'changed' : 'first'}\n    config:\n      contract: {enforced: ${enforced}}\n    columns:\n      - name: id\n        data_type: ${idType}\n${extra}      - name: color\n        data_type: text\n      - name: date_day\n        data_type: text\n  - name: other\n    columns:\n      - name: id\n`;
    const p = conformanceProject({ 'models/my_model.sql': table(BASE), 'models/other.sql': table('select 1 as id'), 'models/schema.yml': yml('integer') }, 'test', { engine });
    await succeedingRun(p.dir, { writeArtifacts: true }); // its manifest.json is the state compared against
    cpSync(join(p.dir, 'target'), join(p.dir, 'prod'), { recursive: true });
    const selected = () => {
      const run = p.dbt(['ls', '--select', 'state:modified.contract', '--state', join(p.dir, 'prod'), '--resource-type', 'model', '--output', 'name']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      return run.stdout.split('\n').filter((l) => /^\w+$/.test(l.trim())).map((l) => l.trim());
    };
    expect(selected()).toEqual([]);
    p.write('models/schema.yml', yml('integer', '        constraints: [{type: not_null}]\n'));
    expect(selected()).toEqual(['my_model']);
    p.write('models/schema.yml', yml('bigint'));
    expect(selected()).toEqual(['my_model']);
    p.write('models/schema.yml', yml('integer', '', false));
    expect(selected()).toEqual(['my_model']);
    p.write('models/schema.yml', yml('integer').replace('description: first', 'description: other words'));
    expect(selected()).toEqual([]);
  });
});

import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceProject } from '../support/conformance-project.js';
import { buildCrossDbProject, expectActualEqualsExpected } from '../support/cross-db-project.js';
import { describeEachEngine, pgReader, withReader } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 14): dbt's type and cast macros, as mini-dbt
 * ships them in the `dbt` package. Modelled on dbt-tests-adapter's
 * utils/data_types/ tests (test_type_string, _int, _bigint, _float, _numeric,
 * _boolean, _timestamp: an `expected` seed or model and an `actual` model that
 * casts with the macro, checked equal in content and type) and utils/
 * test_cast, test_safe_cast, test_cast_bool_to_text; each model built
 * unqualified and as dbt.<macro>.
 *
 * On PostgreSQL a column's type is its declared type, as in dbt's check.
 * Translated to SQLite: a column's "type" is the storage class of its values
 * (typeof()), since a table built from a query declares only affinities.
 * test_type_boolean casts the text 'True', which SQLite's cast reads as 0 (it
 * has no boolean type, only 1 and 0): here the seed holds 1 and the model casts
 * '1'. test_type_timestamp's seed declares `timestamp` (NUMERIC affinity; the
 * text value stays text) and type_timestamp() is TEXT on SQLite, so the cast
 * keeps '2021-01-01 01:01:01' whole. test_cast and test_safe_cast cast with
 * type_string() where dbt's fixture calls api.Column.translate_type('string').
 */
const MACROS = ['type_string', 'type_int', 'type_bigint', 'type_float', 'type_numeric', 'type_boolean', 'type_timestamp', 'cast', 'safe_cast', 'cast_bool_to_text'];

const LOREM = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';

/** dbt-tests-adapter's data type cases: the expected relation (a seed, or a model for bigint) and the actual model. */
const TYPE_CASES = {
  string: { column: 'string_col', seed: `string_col\n"${LOREM}"\n`, actual: `select cast('${LOREM}' as {{ type_string() }}) as string_col` },
  int: { column: 'int_col', seed: 'int_col\n12345678\n', actual: "select cast('12345678' as {{ type_int() }}) as int_col" },
  bigint: { column: 'bigint_col', model: 'select 9223372036854775800 as bigint_col', actual: "select cast('9223372036854775800' as {{ type_bigint() }}) as bigint_col" },
  float: { column: 'float_col', seed: 'float_col\n1.2345\n', actual: "select cast('1.2345' as {{ type_float() }}) as float_col" },
  numeric: { column: 'numeric_col', seed: 'numeric_col\n1.2345\n', types: 'numeric(28,6)', actual: "select cast('1.2345' as {{ type_numeric() }}) as numeric_col" },
  boolean: { column: 'boolean_col', seed: 'boolean_col\n1\n', actual: "select cast('1' as {{ type_boolean() }}) as boolean_col" },
  timestamp: { column: 'timestamp_col', seed: 'timestamp_col\n2021-01-01 01:01:01\n', types: 'timestamp', actual: "select cast('2021-01-01 01:01:01' as {{ type_timestamp() }}) as timestamp_col" },
} as const satisfies Record<string, { column: string; seed?: string; model?: string; types?: string; actual: string }>;

/**
 * On PostgreSQL the seeds infer dbt-postgres's types (integer for the int case, float8 for the float
 * case), so the expected relation has the type the macro names, as in dbt's fixtures; only the boolean
 * case's 1 (a number to agate) is declared boolean.
 */
const PG_SEED_TYPES: Record<string, string> = { boolean: 'boolean' };

const CAST = (macro: string) => `
with data as (
    select * from {{ ref('data_${macro}') }}
)
select {{ ${macro}('field', type_string()) }} as actual, output as expected
from data
`;

const CAST_BOOL_TO_TEXT = `
with data as (
    select 0=1 as input, 'false' as expected union all
    select 1=1 as input, 'true' as expected union all
    select null as input, null as expected
)
select {{ cast_bool_to_text("input") }} as actual, expected
from data
`;

describeEachEngine("dbt's data type macros (dbt-tests-adapter utils/data_types/)", (engine) => {
  let project: ConformanceProject;
  beforeAll(() => {
    const seeds: Record<string, string> = { data_cast: 'field,output\nabc,abc\n123,123\n,\n', data_safe_cast: 'field,output\nabc,abc\n123,123\n,\n' };
    const models: Record<string, string> = { test_cast: CAST('cast'), test_safe_cast: CAST('safe_cast'), test_cast_bool_to_text: CAST_BOOL_TO_TEXT };
    const seedTypes: string[] = [];
    for (const [name, c] of Object.entries(TYPE_CASES)) {
      if ('seed' in c) seeds[`expected_${name}`] = c.seed;
      if ('model' in c) models[`expected_${name}`] = c.model;
      const types = engine === 'postgres' && name in PG_SEED_TYPES ? PG_SEED_TYPES[name] : 'types' in c ? c.types : undefined;
      if (types) seedTypes.push(`  - name: expected_${name}\n    config:\n      column_types:\n        ${c.column}: '${types}'\n`);
      models[`actual_${name}`] = c.actual;
    }
    project = buildCrossDbProject({ macros: MACROS, seeds, models, files: { 'seeds/properties.yml': `version: 2\nseeds:\n${seedTypes.join('')}` } }, engine);
  });

  /** Each row's value and storage class (PostgreSQL: the column's type), ordered. */
  function typedRows(relation: string, column: string): unknown[] {
    if (engine === 'postgres') {
      const type = withReader(() => pgReader(project.pg!), (db) => db.columns(relation).find((c) => c.name === column)?.type);
      return project.rows(relation).map((r) => ({ value: r[column], type }));
    }
    const db = new Database(join(project.dir, 'warehouse.db'), { readonly: true });
    try {
      return db.prepare(`select "${column}" as value, typeof("${column}") as type from "${relation}" order by 1`).all();
    } finally {
      db.close();
    }
  }

  it.each(Object.entries(TYPE_CASES))('type_%s: the cast equals the expected relation, in value and storage class', (name, c) => {
    const expected = typedRows(`expected_${name}`, c.column);
    expect(expected).toHaveLength(1);
    expect(typedRows(`actual_${name}`, c.column)).toEqual(expected);
    expect(typedRows(`actual_${name}_qualified`, c.column)).toEqual(expected);
  });

  it.runIf(engine === 'postgres')('the types are the names dbt-postgres writes: text, timestamp, numeric(28,6), bigint', () => {
    const sql = (model: string) => readFileSync(join(project.dir, 'target/compiled/cross_db/models', `${model}.sql`), 'utf8');
    expect(sql('actual_string')).toMatch(/as text\)/);
    expect(sql('actual_timestamp')).toMatch(/as timestamp\)/);
    expect(sql('actual_numeric')).toMatch(/as numeric\(28,6\)\)/);
    expect(sql('actual_bigint')).toMatch(/as bigint\)/);
  });

  it.runIf(engine === 'sqlite')('the types are the names dbt writes, TEXT for strings and timestamps', () => {
    const sql = (model: string) => readFileSync(join(project.dir, 'target/compiled/cross_db/models', `${model}.sql`), 'utf8');
    expect(sql('actual_string')).toMatch(/as TEXT\)/);
    expect(sql('actual_timestamp')).toMatch(/as TEXT\)/);
    expect(sql('actual_numeric')).toMatch(/as numeric\(28,6\)\)/);
    expect(sql('actual_bigint')).toMatch(/as bigint\)/);
  });

  describe("dbt's cast macros (dbt-tests-adapter utils/)", () => {
    it('cast to a string, NULL for NULL (test_cast)', () => {
      expect(expectActualEqualsExpected(project, 'test_cast')).toHaveLength(3);
    });

    it('safe_cast to a string, NULL for NULL (test_safe_cast)', () => {
      expect(expectActualEqualsExpected(project, 'test_safe_cast')).toHaveLength(3);
    });

    it("cast_bool_to_text: 'true', 'false', NULL (test_cast_bool_to_text)", () => {
      expect(expectActualEqualsExpected(project, 'test_cast_bool_to_text')).toHaveLength(3);
    });
  });
});

import { ProjectError } from '../errors/project-error.js';
import { refModelKey } from '../compile/versioned-ref.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { describeSelect } from '../engine/describe-select.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import type { ColumnInfo } from '../engine/relation-kind.js';
import type { RunContext } from '../invocation/run-context.js';
import { inlineEphemerals, type EphemeralCte } from '../compile/inline-ephemerals.js';
import type { Manifest } from '../compile/manifest.js';
import { Relation } from '../compile/relation.js';
import { RenderContext } from '../compile/render-context.js';
import { modelRenderState } from '../compile/render-model.js';
import type { RenderState } from '../compile/render-state.js';
import { requireOneStatement } from '../compile/single-statement.js';
import { findLine } from '../compile/find-line.js';
import type { UnitTestInput, UnitTestNode } from '../compile/unit-test-node.js';
import { expectedSql, fixtureSql, testedColumns } from './fixture-sql.js';

export interface RenderedUnitTest {
  /** The model's SQL on the fixtures (their CTEs first). */
  readonly actualSql: string;
  readonly expectedSql: string;
  /** The columns compared (the expected rows' columns; all of the model's when it expects no rows). */
  readonly columns: readonly string[];
  /** dbt's unit test query: actual and expected rows in one result, told apart by actual_or_expected. */
  readonly sql: string;
}

const ACTUAL_OR_EXPECTED = 'actual_or_expected';

/**
 * Renders the tested model as dbt's unit test materialization does: ref(),
 * source() and `this` given as inputs read their fixture rows (CTEs named as
 * dbt names ephemeral models), is_incremental() returns the override (false
 * without one), vars, env vars and the macros (or context values) the model
 * calls directly return their overrides. Column types come from the inputs'
 * real relations (read, never written) and from the model's own result; a
 * `this` whose table is not built yet takes the columns of the model's own
 * full-build query on the other fixtures.
 */
export function renderUnitTest(db: Warehouse, manifest: Manifest, test: UnitTestNode, run: RunContext): RenderedUnitTest {
  const actualSql = renderOnFixtures(db, manifest, test, run);
  const modelColumns = describeSelect(db, actualSql);
  const expectRows = test.expect.rows;
  const columns = expectRows && expectRows.length > 0 ? testedColumns(expectRows) : modelColumns.map((c) => c.name.toLowerCase());
  const expected = test.expect.format === 'sql' ? test.expect.sql! : expectedSql(expectRows ?? [], modelColumns, test.expect.format === 'csv');
  const quoted = columns.map((name) => quoteIdentifier(modelColumns.find((c) => c.name.toLowerCase() === name)?.name ?? name)).join(', ');
  const sql = [
    '-- Build actual result given inputs',
    'with dbt_internal_unit_test_actual as (',
    `  select\n    ${quoted}, 'actual' as ${quoteIdentifier(ACTUAL_OR_EXPECTED)}`,
    `  from (\n${actualSql}\n  ) _dbt_internal_unit_test_actual`,
    '),',
    '-- Build expected result',
    'dbt_internal_unit_test_expected as (',
    `  select\n    ${quoted}, 'expected' as ${quoteIdentifier(ACTUAL_OR_EXPECTED)}`,
    `  from (\n${expected}\n  ) _dbt_internal_unit_test_expected`,
    ')',
    '-- Union actual and expected results',
    'select * from dbt_internal_unit_test_actual',
    'union all',
    'select * from dbt_internal_unit_test_expected',
  ].join('\n');
  return { actualSql, expectedSql: expected, columns, sql };
}

/** The tested model's SQL with its given inputs as fixture CTEs (only those it reads). */
function renderOnFixtures(db: Warehouse, manifest: Manifest, test: UnitTestNode, run: RunContext): string {
  const model = manifest.models.get(test.model);
  if (!model) throw new ProjectError(`unit test '${test.name}': model '${test.model}' is not in the project`, { location: { file: test.path, line: test.line } });
  const ctes = new Map<string, EphemeralCte>();
  const used = new Map<string, UnitTestInput>();
  const overrides = test.overrides;
  const base = modelRenderState(manifest, model, { db, incremental: false, existing: null, run }, null, ctes);
  const given = (kind: UnitTestInput['kind'], name: string) => test.given.find((g) => g.kind === kind && g.name === name);
  const fixture = (input: UnitTestInput) => {
    used.set(input.input, input);
    return new Relation(input.cte, 'ephemeral', input.cte);
  };
  const missing = (call: string) =>
    new ProjectError(`unit test '${test.name}': model '${model.name}' reads ${call}, which is not one of the test's given inputs`, {
      location: { file: test.path, line: test.line },
      hint: `add  - input: ${call}  with its rows (rows: [] for none) under given:`,
    });
  const thisInput = given('this', model.name);
  const state: RenderState = {
    ...base,
    ref: (name, pkg) => {
      const input = given('ref', name) ?? given('ref', refModelKey(manifest.models, name));
      if (!input || (pkg !== undefined && pkg !== manifest.project.name)) throw missing(`ref('${name}')`);
      return fixture(input);
    },
    source: (s, t) => {
      const input = given('source', `${s}.${t}`);
      if (!input) throw missing(`source('${s}', '${t}')`);
      return fixture(input);
    },
    self: thisInput ? fixture(thisInput) : base.self,
    isIncremental: () => overrides.macros.is_incremental === true,
    vars: (name) => (Object.prototype.hasOwnProperty.call(overrides.vars, name) ? { found: true, value: overrides.vars[name] } : base.vars(name)),
    varNames: () => [...new Set([...Object.keys(overrides.vars), ...base.varNames()])],
    envVars: overrides.envVars,
  };
  const rendered = manifest.jinja.render(model.file.path, model.file.rawSql, state, macroOverrides(manifest, state, overrides.macros)).trim();
  const body = requireOneStatement(rendered, {
    what: `model '${model.name}'`,
    file: model.file.path,
    lineOf: (start) => findLine(model.file.rawSql, start),
    rule: 'a model is one select',
  });
  const fixtures: EphemeralCte[] = [...used.values()].map((input) => ({ name: input.cte, sql: inputSql(db, manifest, test, input, run) }));
  return inlineEphemerals(body, [...fixtures, ...ctes.values()]);
}

/** A given input's fixture query: its sql as written, or its rows over every column of its real relation. */
function inputSql(db: Warehouse, manifest: Manifest, test: UnitTestNode, input: UnitTestInput, run: RunContext): string {
  if (input.format === 'sql') return input.sql!;
  let columns: ColumnInfo[] = db.relationColumns(input.relation.alias, { schema: input.relation.schema });
  if (columns.length === 0 && input.kind === 'this') {
    // dbt needs the model built before a unit test can mock `this` (dbt-core #10695); the model's own full-build
    // query on the other fixtures has the same columns, so a first `build` can run its unit tests.
    const fullBuild: UnitTestNode = { ...test, given: test.given.filter((g) => g.kind !== 'this'), overrides: { ...test.overrides, macros: { ...test.overrides.macros, is_incremental: false } } };
    columns = describeSelect(db, renderOnFixtures(db, manifest, fullBuild, run));
  }
  if (columns.length === 0) {
    throw new ProjectError(
      `Not able to get columns for unit test '${input.name}' from relation ${quoteIdentifier(input.relation.schema)}.${quoteIdentifier(input.relation.alias)} because the relation doesn't exist`,
      {
        location: { file: test.path, line: test.line },
        hint: `a unit test reads the column types of its inputs from the warehouse: build them first (\`mini-dbt run --select +${test.model} --empty\` creates them without rows), or give ${input.input} with format: sql`,
      },
    );
  }
  return fixtureSql(input.rows ?? [], columns, `'${input.name}'`, input.format === 'csv');
}

/**
 * overrides.macros as template-local names: a macro or context function
 * becomes a function returning the override, a context value (invocation_id)
 * the value itself, as dbt's unit test context does.
 */
function macroOverrides(manifest: Manifest, state: RenderState, macros: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const globals = (manifest.jinja.env as unknown as { globals: Record<string, unknown> }).globals;
  let context: RenderContext | undefined;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(macros)) {
    const own = Object.getOwnPropertyDescriptor(globals, name);
    let current: unknown = own && 'value' in own ? own.value : undefined;
    if (current === undefined && name in RenderContext.prototype) current = (context ??= new RenderContext(state, () => undefined))[name as keyof RenderContext];
    out[name] = typeof current === 'function' ? () => value : value;
  }
  return out;
}

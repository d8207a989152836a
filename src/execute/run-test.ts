import type { Manifest } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect, engine } from '../engine/current-engine.js';
import { ProjectError } from '../errors/project-error.js';
import { foldAsciiCase, isReservedName } from '../project/reserved-names.js';
import { ensureSchema } from '../engine/target-schemas.js';
import { renderTest } from '../data-tests/render-test.js';
import { failingRowsQuery, testQuery, testStatus, testThresholds, type TestStatus } from '../data-tests/test-query.js';
import type { TestRenderOptions } from '../data-tests/test-render-state.js';
import type { TestNode } from '../compile/test-node.js';

export interface TestRun {
  readonly status: TestStatus;
  readonly failures: number;
  readonly message: string | null;
  /** The test's SELECT of failing rows (target/compiled). */
  readonly sql: string;
  /** The relation the failing rows were kept in (store_failures), as SQL names it. */
  readonly storedFailures?: string;
}

/** Where store_failures keeps a test's failing rows: `relation` is how SQL names it (quoted). */
export interface FailuresRelation {
  readonly schema: string;
  readonly name: string;
  readonly relation: string;
}

const STORE_AS = ['ephemeral', 'table', 'view'] as const;
type StoreAs = (typeof STORE_AS)[number];

/**
 * Where dbt keeps a test's failing rows: in the schema `<target schema>_<schema
 * config>` (default `dbt_test__audit`), named after the test's alias or name.
 * SQLite keeps one file: there it is `<schema config>__<alias or name>` in main.
 */
export function failuresRelation(test: TestNode, targetSchema: string): FailuresRelation {
  const custom = typeof test.config.schema === 'string' && test.config.schema.trim() !== '' ? test.config.schema.trim() : 'dbt_test__audit';
  const alias = typeof test.config.alias === 'string' ? test.config.alias : test.name;
  if (engine.inSchema === undefined) return { schema: 'main', name: `${custom}__${alias}`, relation: quoteIdentifier(`${custom}__${alias}`) };
  const schema = `${targetSchema}_${custom}`;
  return { schema, name: alias, relation: `${quoteIdentifier(schema)}.${quoteIdentifier(alias)}` };
}

/**
 * A test's kept failures replace their relation (drop, create): refused when that relation is
 * another node's (a model, seed or snapshot in the same schema, names compared as SQLite compares
 * them) or in mini-dbt's reserved namespace (E232). SQLite keeps them in main as
 * `<schema config>__<alias>`, which a config can aim at any name with `__` in it.
 */
function refuseTakenFailuresRelation(manifest: Manifest, test: TestNode, kept: FailuresRelation): void {
  const where = `test '${test.name}' (${test.path}) keeps its failing rows (store_failures) in "${kept.schema}"."${kept.name}"`;
  if (isReservedName(kept.name)) throw new ProjectError(`${where}, which is in mini-dbt's reserved namespace`, { hint: 'give the test another alias or schema config', exitCode: 1 });
  const same = (schema: string, alias: string) => foldAsciiCase(schema) === foldAsciiCase(kept.schema) && foldAsciiCase(alias) === foldAsciiCase(kept.name);
  const owners = [
    ...[...manifest.models.values()].filter((m) => m.settings.materialized !== 'ephemeral'),
    ...manifest.seeds.values(),
    ...(manifest.snapshots?.values() ?? []),
  ];
  const owner = owners.find((n) => same(n.schema, n.alias));
  if (owner) throw new ProjectError(`${where}, which is ${owner.uniqueId}'s relation: its rows would be replaced`, { hint: 'give the test another alias or schema config', exitCode: 1 });
}

/**
 * How a test's failures are kept, as dbt decides it: store_failures_as
 * (table, view, or ephemeral: not kept) wins wherever it is set; unset,
 * store_failures (or --store-failures) keeps them in a table.
 */
export function storeFailuresAs(test: TestNode, flag: boolean): StoreAs {
  const as = test.config.store_failures_as;
  if (as !== undefined && as !== null) {
    if (typeof as !== 'string' || !(STORE_AS as readonly string[]).includes(as)) {
      throw new ProjectError(`Compilation Error in test ${test.name} (${test.path})\n  '${String(as)}' is not a valid value for store_failures_as. Accepted values are: ['ephemeral', 'table', 'view']`);
    }
    return as as StoreAs;
  }
  return (test.config.store_failures ?? flag) === true ? 'table' : 'ephemeral';
}

/**
 * Run one data test: render it, run dbt's test query, and when its failures
 * are kept (store_failures_as, store_failures or --store-failures) replace
 * the table or view of its failing rows in one transaction.
 */
export function runTest(db: Warehouse, manifest: Manifest, test: TestNode, options: TestRenderOptions): TestRun {
  // config() in the test's own SQL (dbt_utils' equal_rowcount sets fail_calc) yields to the yml and project configs, as in dbt.
  const macroConfig: Record<string, unknown> = {};
  const sql = renderTest(manifest, test, { ...options, capturedConfig: macroConfig });
  const store = storeFailuresAs(test, options.run?.storeFailures ?? false);
  const thresholds = testThresholds(test.name, { ...macroConfig, ...test.config });
  const row = db.prepare(testQuery(sql, thresholds)).get() as { failures: unknown; should_warn: unknown; should_error: unknown };
  const outcome = testStatus(row, thresholds, options.run?.warnError);
  if (store === 'ephemeral') return { ...outcome, sql };
  const kept = failuresRelation(test, manifest.project.target.schema);
  refuseTakenFailuresRelation(manifest, test, kept);
  const failing = failingRowsQuery(sql, thresholds.limit);
  db.transaction(() => {
    if (kept.schema !== 'main') ensureSchema(db, manifest.project.target, kept.schema);
    const existing = db.relationKind(kept.name, kept.schema);
    if (existing) db.exec(dialect.dropRelation(existing, kept.relation));
    db.exec(store === 'view' ? dialect.createView(kept.relation, failing) : dialect.createTableAs(kept.relation, failing));
  });
  return { ...outcome, sql, storedFailures: kept.relation };
}

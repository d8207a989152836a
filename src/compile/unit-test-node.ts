import type { FixtureFormat, UnitTestOverrides } from '../project/unit-test-definition.js';

/** A row of a fixture: column name (lower case) to a value as YAML or CSV gave it. */
export type FixtureRow = Readonly<Record<string, unknown>>;

/** Rows of a fixture once read: a list of rows (dict and csv), or a query (sql). */
export interface FixtureRows {
  readonly format: FixtureFormat;
  /** dict and csv: the rows (csv values are text, empty cells null). */
  readonly rows?: readonly FixtureRow[];
  /** sql: the query giving every column of the input. */
  readonly sql?: string;
}

/** One `given:` input, resolved to the node it stands in for. */
export interface UnitTestInput extends FixtureRows {
  /** As written: `ref('orders')`, `source('raw', 'orders')`, `this`. */
  readonly input: string;
  readonly kind: 'ref' | 'source' | 'this';
  /** ref name, `source.table`, or the tested model's name for `this`. */
  readonly name: string;
  /** The node it replaces (model, seed, snapshot or source). */
  readonly nodeId: string;
  /** The CTE the fixture becomes (dbt's `__dbt__cte__<name>`). */
  readonly cte: string;
  /** Where the real relation is, to read the column names and types from. */
  readonly relation: { readonly schema: string; readonly alias: string };
  /** An ephemeral model has no relation: its rows must be a query (format: sql). */
  readonly ephemeral: boolean;
}

/** A dbt 1.8 unit test: the model's SQL run on fixture rows, compared with the expected rows. */
export interface UnitTestNode {
  readonly resourceType: 'unit_test';
  /** unit_test.<project>.<model>.<name> */
  readonly uniqueId: string;
  readonly name: string;
  /** The model it tests (name and unique id). */
  readonly model: string;
  readonly modelId: string;
  readonly fqn: readonly string[];
  /** The yml file and line it is declared at. */
  readonly path: string;
  readonly line: number;
  readonly description?: string;
  readonly given: readonly UnitTestInput[];
  readonly expect: FixtureRows;
  readonly overrides: UnitTestOverrides;
  /** tags, meta, enabled (as dbt's UnitTestConfig). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly tags: readonly string[];
  /** The tested model only, as dbt's depends_on.nodes of a unit test definition. */
  readonly dependsOn: readonly string[];
}

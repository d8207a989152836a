import type { VersionValue } from '../project/model-version.js';

/** The kinds of node in the DAG. */
export type ResourceType = 'model' | 'seed' | 'source' | 'snapshot' | 'test' | 'unit_test' | 'exposure' | 'analysis';

/** Every resource type, in the order used to break ties when ordering nodes. */
export const RESOURCE_TYPES: readonly ResourceType[] = ['seed', 'source', 'snapshot', 'model', 'analysis', 'unit_test', 'test', 'exposure'];

/** One resource of the project, as the graph sees it. */
export interface GraphNode {
  /** model.<project>.<name>, seed.<project>.<name>, source.<project>.<source>.<table>, test.<project>.<name> */
  readonly uniqueId: string;
  /** Model, seed or test name; for sources '<source>.<table>'. */
  readonly name: string;
  readonly resourceType: ResourceType;
  /** Project-relative, forward slashes (models/marts/daily_revenue.sql); for sources the yml file. */
  readonly path: string;
  /** e.g. ['brightcart', 'marts', 'daily_revenue'] */
  readonly fqn: readonly string[];
  readonly tags: readonly string[];
  /** Unique ids of the parents. */
  readonly dependsOn: readonly string[];
  /** Resolved config, e.g. { materialized: 'incremental' }. */
  readonly config?: Readonly<Record<string, unknown>>;
  readonly packageName: string;
  /** Tests only: generic, singular or unit (the `test_type:` method), and the generic test's name or the unit test's (`test_name:`). */
  readonly testType?: 'generic' | 'singular' | 'unit';
  readonly testName?: string;
  /** A versioned model's version and its model's latest version (dbt's model versions; the `version:` method). */
  readonly version?: VersionValue;
  readonly latestVersion?: VersionValue;
}

/**
 * The DAG. Every node has an entry in `parents` and `children` (possibly
 * empty); `children` lists are sorted by unique id. Edges point from a parent
 * to the nodes that depend on it.
 */
export interface Graph {
  readonly nodes: ReadonlyMap<string, GraphNode>;
  readonly parents: ReadonlyMap<string, readonly string[]>;
  readonly children: ReadonlyMap<string, readonly string[]>;
}

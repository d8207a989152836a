import type { TestNode } from './test-node.js';
import type { UnitTestNode } from './unit-test-node.js';
import type { GraphNode } from '../graph/graph-node.js';
import type { ModelFile, NodeProperties, Project, SeedFile, SourceTable } from '../project/project.js';
import type { JinjaEnvironment } from './jinja-environment.js';
import type { ModelSettings, SeedSettings, SourceSettings } from '../config/model-settings.js';
import type { SnapshotSettings } from '../config/snapshot-settings.js';
import type { SnapshotDefinition } from '../project/snapshot-definition.js';
import type { DocsBlock } from '../project/docs-block.js';

export type NodeConfig = Readonly<Record<string, unknown>>;

export interface ModelNode {
  readonly resourceType: 'model';
  readonly uniqueId: string;
  readonly name: string;
  /** The relation name in the warehouse (alias config, else the name). */
  readonly alias: string;
  /** The schema it is built in (generate_schema_name; main without a profile). */
  readonly schema: string;
  readonly file: ModelFile;
  readonly fqn: readonly string[];
  /** The merged config as written (templates' config.get(), manifest.json); code reads `settings`. */
  readonly config: NodeConfig;
  /** The config parsed once after capture (src/config/model-settings.ts). */
  readonly settings: ModelSettings;
  readonly properties?: NodeProperties;
  readonly refs: readonly string[];
  readonly sources: readonly [string, string][];
  readonly dependsOn: readonly string[];
}

export interface SeedNode {
  readonly resourceType: 'seed';
  readonly uniqueId: string;
  readonly name: string;
  readonly alias: string;
  readonly schema: string;
  readonly file: SeedFile;
  readonly fqn: readonly string[];
  readonly config: NodeConfig;
  readonly settings: SeedSettings;
  readonly properties?: NodeProperties;
}

export interface SourceNode {
  readonly resourceType: 'source';
  readonly uniqueId: string;
  readonly name: string; // source.table
  readonly alias: string; // the identifier in the warehouse
  /** The source's schema with a profile; main without one. */
  readonly schema: string;
  readonly table: SourceTable;
  readonly fqn: readonly string[];
  readonly config: NodeConfig;
  readonly settings: SourceSettings;
}

/** A snapshot (type 2 slowly changing dimension): snapshot.<project>.<name>; not in `nodes`, as tests are not. */
export interface SnapshotNode {
  readonly resourceType: 'snapshot';
  readonly uniqueId: string;
  readonly name: string;
  /** The table it keeps (its name; target_schema decides the schema). */
  readonly alias: string;
  readonly schema: string;
  readonly definition: SnapshotDefinition;
  /** The body as a model file (path: the snapshot's file), so it renders as a model does. */
  readonly file: ModelFile;
  readonly fqn: readonly string[];
  readonly config: NodeConfig;
  readonly settings: SnapshotSettings;
  readonly refs: readonly string[];
  readonly sources: readonly [string, string][];
  readonly dependsOn: readonly string[];
}

/**
 * A dbt analysis: a .sql file under analysis-paths, rendered like a model
 * (ref, source, config, macros) and compiled into target/compiled, never run
 * (analysis.<project>.<name>; its fqn has 'analysis' after the project, as
 * dbt's). Not in `nodes`: it is no relation.
 */
export interface AnalysisNode {
  readonly resourceType: 'analysis';
  readonly uniqueId: string;
  readonly name: string;
  /** What `this` names while it renders: its name. */
  readonly alias: string;
  readonly schema: string;
  readonly file: ModelFile;
  readonly fqn: readonly string[];
  readonly config: NodeConfig;
  readonly tags: readonly string[];
  readonly properties?: NodeProperties;
  readonly refs: readonly string[];
  readonly sources: readonly [string, string][];
  readonly dependsOn: readonly string[];
}

export type ManifestNode = ModelNode | SeedNode | SourceNode;

/** The captured project: every node with resolved config and dependencies. */
export interface Manifest {
  readonly project: Project;
  /** The project's template environment, built on first use (a load served by the parse cache may never need it). */
  readonly jinja: JinjaEnvironment;
  /** Names of the project's macros. */
  readonly macroNames: readonly string[];
  readonly nodes: ReadonlyMap<string, ManifestNode>;
  readonly models: ReadonlyMap<string, ModelNode>; // by name
  readonly seeds: ReadonlyMap<string, SeedNode>; // by name
  readonly sources: ReadonlyMap<string, SourceNode>; // by 'source.table'
  readonly disabled: ReadonlyMap<string, ModelNode>;
  readonly graphNodes: readonly GraphNode[];
  /** Data tests by unique id (not in `nodes`: they are not relations). */
  readonly tests: ReadonlyMap<string, TestNode>;
  /** Snapshots by name. */
  readonly snapshots?: ReadonlyMap<string, SnapshotNode>;
  /** dbt 1.8 unit tests by unique id (unit_test.<project>.<model>.<name>). */
  readonly unitTests?: ReadonlyMap<string, UnitTestNode>;
  /** dbt's analyses by name (compiled by compile, listed by ls, never run). */
  readonly analyses?: ReadonlyMap<string, AnalysisNode>;
  /** `{% docs %}` blocks by name (manifest.json's `docs`, the docs site's overview). */
  readonly docs?: ReadonlyMap<string, DocsBlock>;
  /** Merged vars: project globals, project-scoped, then --vars. */
  readonly vars: Readonly<Record<string, unknown>>;
  /** The vars of each installed package's nodes (--vars, the root project's, the package's own), by package. */
  readonly packageVars?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

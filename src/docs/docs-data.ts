/** What the docs page knows about one node (serialized into the page). */
export interface DocsColumn {
  readonly name: string;
  readonly type: string | null;
  readonly description: string;
  readonly tests: readonly string[];
}

export interface DocsTest {
  readonly id: string;
  readonly name: string;
  readonly column: string | null;
  readonly status: string | null;
}

export interface DocsLastRun {
  readonly status: string;
  readonly mode: string;
  readonly reason: string | null;
  readonly completedAt: string;
  readonly rowsDeleted: number;
  readonly rowsInserted: number;
  readonly message: string | null;
  readonly invocationId: string;
}

/** The latest write of one partition of an incremental model, from the run ledger. */
export interface DocsPartition {
  readonly partition: string;
  readonly writtenAt: string;
  readonly mode: string;
  /** Why the node ran in that mode (plan reason). */
  readonly planReason: string | null;
  /** Why the command was run (`--reason`), and the command line. */
  readonly runReason: string | null;
  readonly command: string | null;
  readonly asOf: string | null;
}

export interface DocsStale {
  readonly asOf: string | null;
  readonly partitions: readonly string[];
  /** Why staleness could not be computed, when it could not. */
  readonly unavailable?: string;
}

/** One version of a snapshotted key (a row of the snapshot table). */
export interface DocsSnapshotVersion {
  readonly validFrom: string | null;
  readonly validTo: string | null;
  /** dbt_is_deleted (hard_deletes: new_record), else null. */
  readonly deleted: string | null;
  /** The snapshotted columns' values, in `DocsSnapshotHistory.columns` order. */
  readonly values: readonly (string | null)[];
}

export interface DocsSnapshotKey {
  /** The unique key's value(s), comma separated. */
  readonly key: string;
  readonly versions: readonly DocsSnapshotVersion[];
}

/** A snapshot's history by key, read from its table at generate time (bounded by `limit` keys). */
export interface DocsSnapshotHistory {
  readonly keyColumns: readonly string[];
  readonly columns: readonly string[];
  /** The names of the validity columns (snapshot_meta_column_names may rename them). */
  readonly validFrom: string;
  readonly validTo: string;
  readonly deletedColumn: string | null;
  readonly totalKeys: number;
  readonly limit: number;
  /** Keys with more than one version first. */
  readonly keys: readonly DocsSnapshotKey[];
  /** Why a built snapshot's history could not be read, when it could not. */
  readonly unavailable?: string;
}

export interface DocsNode {
  readonly id: string;
  readonly name: string;
  readonly resourceType: string;
  /** materialization for models; seed, source or test otherwise. */
  readonly kind: string;
  readonly path: string;
  readonly description: string;
  readonly columns: readonly DocsColumn[];
  readonly tests: readonly DocsTest[];
  readonly config: Readonly<Record<string, unknown>>;
  readonly rawSql: string | null;
  readonly compiledSql: string | null;
  readonly dependsOn: readonly string[];
  readonly lastRun: DocsLastRun | null;
  readonly partitions: readonly DocsPartition[] | null;
  readonly stale: DocsStale | null;
  /** Snapshots: each key's versions (null for other nodes, or a snapshot not built yet). */
  readonly history?: DocsSnapshotHistory | null;
  /** Layout (center x, y, width, height) computed by dagre. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DocsEdge {
  readonly from: string;
  readonly to: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface DocsSite {
  readonly project: string;
  readonly generatedAt: string;
  readonly database: string;
  /** The project's `__overview__` docs block, shown on the front page as dbt's site shows it. */
  readonly overview: string | null;
  readonly width: number;
  readonly height: number;
  readonly nodes: DocsNode[];
  readonly edges: DocsEdge[];
}

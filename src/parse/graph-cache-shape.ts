/**
 * The graph cache file's graph (graph-cache.ts), and what a file read from
 * disk must look like before any of it is used: a file cut short,
 * overwritten or written by something else is ignored and rewritten, never
 * trusted into a graph. Nodes are stored as rows and configs once each (a
 * 10,000-model graph is read on every `ls`: about half the JSON of the
 * objects, so half the parse).
 */
import type { GraphNode, ResourceType } from '../graph/graph-node.js';

/** uniqueId, name, resourceType, path, fqn, tags, dependsOn (a stored node's row number, or a unique id), config (row in `configs`, or -1), packageName, materialization (models), testType, testName, then a versioned model's version and latest version. */
export type StoredNode = readonly [string, string, ResourceType, string, readonly string[], readonly string[], readonly (number | string)[], number, string, string | null, string | null, string | null, ...([] | [string | number, string | number])];

export interface StoredGraph {
  readonly configs: readonly Readonly<Record<string, unknown>>[];
  readonly nodes: readonly StoredNode[];
}

export function encodeGraph(nodes: readonly GraphNode[], materialized: ReadonlyMap<string, string>): StoredGraph {
  const row = new Map(nodes.map((n, i) => [n.uniqueId, i]));
  const configs: Readonly<Record<string, unknown>>[] = [];
  const configRow = new Map<string, number>();
  const stored = nodes.map((n): StoredNode => {
    let config = -1;
    if (n.config !== undefined) {
      const text = JSON.stringify(n.config);
      config = configRow.get(text) ?? configs.push(n.config) - 1;
      configRow.set(text, config);
    }
    const fields = [n.uniqueId, n.name, n.resourceType, n.path, n.fqn, n.tags, n.dependsOn.map((id) => row.get(id) ?? id), config, n.packageName, materialized.get(n.uniqueId) ?? null, n.testType ?? null, n.testName ?? null] as const;
    return n.version !== undefined && n.latestVersion !== undefined ? [...fields, n.version, n.latestVersion] : fields;
  });
  return { configs, nodes: stored };
}

/** The graph nodes and each model's materialization; undefined when the stored graph is malformed. */
export function decodeGraph(graph: unknown): { nodes: GraphNode[]; materialized: Map<string, string> } | undefined {
  if (!isRecord(graph) || !Array.isArray(graph.configs) || !Array.isArray(graph.nodes)) return undefined;
  const configs = graph.configs as unknown[];
  if (!configs.every(isRecord)) return undefined;
  const rows = graph.nodes as unknown[];
  const nodes: GraphNode[] = [];
  const materialized = new Map<string, string>();
  for (const row of rows) {
    if (!Array.isArray(row) || (row.length !== 12 && row.length !== 14)) return undefined;
    const [uniqueId, name, resourceType, path, fqn, tags, dependsOn, config, packageName, materialization, testType, testName, version, latestVersion] = row as unknown[];
    if (typeof uniqueId !== 'string' || typeof name !== 'string' || typeof resourceType !== 'string' || typeof path !== 'string' || typeof packageName !== 'string') return undefined;
    if (!isStringList(fqn) || !isStringList(tags) || !Array.isArray(dependsOn) || typeof config !== 'number' || (config !== -1 && configs[config] === undefined)) return undefined;
    const parents: string[] = [];
    for (const parent of dependsOn as unknown[]) {
      const id = typeof parent === 'number' ? (rows[parent] as unknown[] | undefined)?.[0] : parent;
      if (typeof id !== 'string') return undefined;
      parents.push(id);
    }
    if (typeof materialization === 'string') materialized.set(uniqueId, materialization);
    // Built field by field (no spreads: 10,000 of them are read on every `ls`).
    const node: { -readonly [K in keyof GraphNode]: GraphNode[K] } = { uniqueId, name, resourceType: resourceType as ResourceType, path, fqn: fqn as string[], tags: tags as string[], dependsOn: parents, packageName };
    if (config !== -1) node.config = configs[config] as Record<string, unknown>;
    if (typeof testType === 'string') node.testType = testType as GraphNode['testType'];
    if (typeof testName === 'string') node.testName = testName;
    if ((typeof version === 'string' || typeof version === 'number') && (typeof latestVersion === 'string' || typeof latestVersion === 'number')) {
      node.version = version;
      node.latestVersion = latestVersion;
    }
    nodes.push(node);
  }
  return { nodes, materialized };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Why `value` is not a graph cache of this format (its graph aside: decodeGraph), or undefined when it is one. */
export function graphCacheProblem(value: unknown, format: number): string | undefined {
  if (!isRecord(value)) return 'not a JSON object';
  if (value.format !== format) return 'another format';
  if (typeof value.key !== 'string' || typeof value.digest !== 'string') return "no 'key' or 'digest'";
  if (value.envNames !== '*' && !isStringList(value.envNames)) return "'envNames' is malformed";
  if (!isStringList(value.dirs) || !isStringList(value.files)) return "'dirs' or 'files' is malformed";
  return undefined;
}

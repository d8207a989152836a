import { ProjectError } from '../errors/project-error.js';
import { versionKey, type ModelVersion } from '../project/model-version.js';

/** Any map of nodes by name (models, or models with seeds and snapshots): a versioned model's file carries its version. */
type Nodes = ReadonlyMap<string, object>;
const versionOf = (node: object | undefined): ModelVersion | undefined => (node as { readonly file?: { readonly version?: ModelVersion } } | undefined)?.file?.version;

interface LatestKeys {
  readonly size: number;
  /** A versioned model's name -> its latest version's key (`dim_orders` -> `dim_orders.v2`). */
  readonly latest: Map<string, string>;
  /** A versioned model's name -> the keys of all its versions. */
  readonly versions: Map<string, string[]>;
}

const memo = new WeakMap<Nodes, LatestKeys>();

function keysOf(models: Nodes): LatestKeys {
  const known = memo.get(models);
  if (known && known.size === models.size) return known;
  const latest = new Map<string, string>();
  const versions = new Map<string, string[]>();
  for (const [key, node] of models) {
    const version = versionOf(node);
    if (!version) continue;
    if (key === versionKey(version.modelName, version.latest)) latest.set(version.modelName, key);
    versions.set(version.modelName, [...(versions.get(version.modelName) ?? []), key]);
  }
  const out = { size: models.size, latest, versions };
  memo.set(models, out);
  return out;
}

/**
 * The key of the model a ref() names: the name itself, or, for a
 * versioned model named without a version, its latest version's key
 * (dbt: ref('dim_orders') is the latest version). ref('x', v=1) arrives as
 * `x.v1` (context-functions.ts), which is the version's own key.
 */
export function refModelKey(models: Nodes, name: string): string {
  if (models.has(name)) return name;
  return keysOf(models).latest.get(name) ?? name;
}

/**
 * For a ref to a version that does not exist (`dim_orders.v3` when the
 * model has versions 1 and 2): the error naming the versions there are
 * (E209); undefined when `name` is not a versioned model's.
 */
export function unknownVersionError(models: Nodes, name: string, referrer: string, location?: { file: string; line?: number }): ProjectError | undefined {
  const dot = name.lastIndexOf('.v');
  if (dot <= 0) return undefined;
  const model = name.slice(0, dot);
  const keys = keysOf(models).versions.get(model);
  if (!keys) return undefined;
  const versions = keys.map((k) => String(versionOf(models.get(k))!.v));
  return new ProjectError(`${referrer} depends on model '${model}' version ${name.slice(dot + 2)}, which does not exist (versions: ${versions.join(', ')})`, {
    ...(location ? { location } : {}),
    hint: `ref('${model}') is the latest version; ref('${model}', v=${versions[0]}) names one`,
  });
}

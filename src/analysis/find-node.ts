import type { Manifest, ModelNode, SeedNode, SourceNode } from '../compile/manifest.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { refModelKey } from '../compile/versioned-ref.js';

/** A model by name (a versioned model's name is its latest version, as ref() reads it; `name.v1` is one version), or a ProjectError with the closest name. */
export function findModel(manifest: Manifest, name: string): ModelNode {
  const node = manifest.models.get(refModelKey(manifest.models, name));
  if (node) return node;
  const disabled = manifest.disabled.get(name);
  if (disabled) throw new ProjectError(`model '${name}' is disabled (enabled: false)`);
  throw new ProjectError(`no model named '${name}'.${didYouMeanSuffix(name, [...manifest.models.keys()])}`, {
    hint: manifest.models.size > 0 ? `models: ${[...manifest.models.keys()].sort().join(', ')}` : undefined,
  });
}

/**
 * A seed or a source table by name: a seed name, 'source.table', or a bare
 * table name when exactly one source has it.
 */
export function findSeedOrSource(manifest: Manifest, name: string): SeedNode | SourceNode {
  const seed = manifest.seeds.get(name);
  if (seed) return seed;
  const source = manifest.sources.get(name);
  if (source) return source;
  const byTable = [...manifest.sources.values()].filter((s) => s.table.tableName === name);
  if (byTable.length === 1) return byTable[0]!;
  if (byTable.length > 1) {
    throw new ProjectError(`'${name}' is a table of several sources`, { hint: `name one: ${byTable.map((s) => s.name).join(', ')}` });
  }
  const candidates = [...manifest.seeds.keys(), ...manifest.sources.keys()];
  const isModel = manifest.models.has(name);
  throw new ProjectError(`no seed or source named '${name}'.${isModel ? '' : didYouMeanSuffix(name, candidates)}`, {
    hint: isModel
      ? `'${name}' is a model; lateness is measured on the raw rows of a seed or source`
      : candidates.length > 0 ? `seeds and sources: ${candidates.sort().join(', ')}` : 'the project declares no seeds or sources',
  });
}

import type { NodeConfig } from '../compile/manifest.js';
import { indexConfigs } from './model-indexes.js';
import type { IndexSpec } from './seed.js';

/** A seed's `indexes` config in the seed loader's shape. */
export function seedIndexes(config: NodeConfig): IndexSpec[] {
  return indexConfigs(config).map((i) => ({ columns: [...i.columns], unique: i.unique }));
}

import type { NodeConfig } from '../compile/manifest.js';
import { indexConfigs } from '../config/model-settings.js';
import type { IndexSpec } from './seed.js';

/** A seed's `indexes` config in the seed loader's shape (callers with the node: node.settings.indexes). */
export function seedIndexes(config: NodeConfig): IndexSpec[] {
  return indexConfigs(config).map((i) => ({ columns: [...i.columns], unique: i.unique }));
}

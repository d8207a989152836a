import type { NodeConfig } from './manifest.js';

/** dbt's should_full_refresh(): the model's full_refresh config beats the flag. */
export function shouldFullRefresh(config: NodeConfig, flag: boolean): boolean {
  return typeof config.full_refresh === 'boolean' ? config.full_refresh : flag;
}

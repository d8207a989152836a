import type { ConfigMap } from '../project/project.js';
import { mergeGrants } from './grants-config.js';

const ADDITIVE = new Set(['tags', 'pre_hook', 'post_hook']);
const DICT_MERGED = new Set(['meta', 'column_types', 'docs', 'quoting', 'contract']);

/** `pre-hook` and `post-hook` are spelled with underscores internally. */
export function normalizeConfigKey(key: string): string {
  const bare = key.startsWith('+') ? key.slice(1) : key;
  return bare === 'pre-hook' ? 'pre_hook' : bare === 'post-hook' ? 'post_hook' : bare;
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Merge config layers, lowest precedence first, with dbt's rules: tags and
 * hooks add up, meta/column_types/docs/quoting/contract merge as dictionaries, grants merge per privilege
 * (a `+select` extends the earlier list), the rest is replaced.
 */
export function mergeConfigs(...layers: readonly ConfigMap[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [rawKey, value] of Object.entries(layer)) {
      const key = normalizeConfigKey(rawKey);
      if (ADDITIVE.has(key)) {
        const merged = [...asList(out[key]), ...asList(value)];
        out[key] = key === 'tags' ? [...new Set(merged.map(String))] : merged;
      } else if (key === 'grants') {
        out[key] = mergeGrants(out[key], value);
      } else if (DICT_MERGED.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        out[key] = { ...((out[key] as object | undefined) ?? {}), ...value };
      } else {
        out[key] = value;
      }
    }
  }
  return out;
}

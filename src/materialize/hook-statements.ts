import type { NodeConfig } from '../compile/manifest.js';
import type { PlannedStatement } from '../plan/node-plan.js';

/** pre_hook / post_hook entries (strings or {sql}) as statements inside the publish transaction. */
export function hookStatements(config: NodeConfig, which: 'pre_hook' | 'post_hook'): PlannedStatement[] {
  const raw = config[which];
  const list = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  return list
    .map((h) => (typeof h === 'string' ? h : String((h as { sql?: unknown }).sql ?? '')))
    .filter((sql) => sql.trim() !== '')
    .map((sql) => ({ kind: 'exec', role: which === 'pre_hook' ? 'pre-hook' : 'post-hook', sql }) as const);
}

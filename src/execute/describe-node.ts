import type { ManifestNode } from '../compile/manifest.js';

/** dbt's node description: `sql incremental model main.daily_revenue`, `seed file main.raw_orders`. */
export function describeNode(node: ManifestNode): string {
  if (node.resourceType === 'seed') return `seed file main.${node.alias}`;
  if (node.resourceType === 'source') return `source main.${node.alias}`;
  return `sql ${node.settings.materialized} model main.${node.alias}`;
}

/** The bracketed status of a result line: DELETE 4, INSERT 4 / SELECT 61 / CREATE VIEW / INSERT 1124. */
export function adapterMessage(kind: string, mode: string, deleted: number, inserted: number): { message: string; code: string; rows: number } {
  if (kind === 'seed') return { message: `INSERT ${inserted}`, code: 'INSERT', rows: inserted };
  if (mode === 'view') return { message: 'CREATE VIEW', code: 'CREATE VIEW', rows: 0 };
  if (mode === 'full') return { message: `SELECT ${inserted}`, code: 'SELECT', rows: inserted };
  if (deleted > 0 || kind === 'delete+insert') return { message: `DELETE ${deleted}, INSERT ${inserted}`, code: 'INSERT', rows: inserted };
  return { message: `INSERT ${inserted}`, code: 'INSERT', rows: inserted };
}

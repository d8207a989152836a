import type { ManifestNode } from '../compile/manifest.js';

/** dbt's node description: `sql incremental model main.daily_revenue`, `seed file main.raw_orders`. */
export function describeNode(node: ManifestNode): string {
  if (node.resourceType === 'seed') return `seed file ${node.schema}.${node.alias}`;
  if (node.resourceType === 'source') return `source ${node.schema}.${node.alias}`;
  return `sql ${node.settings.materialized} model ${node.schema}.${node.alias}`;
}

/** A plan's quoted relation (`"x"` in main, `"s"."x"`) as log lines name it: `main.x`, `s.x`. */
export function relationLabel(quoted: string): string {
  const parts = [...quoted.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replace(/""/g, '"'));
  return parts.length === 1 ? `main.${parts[0]}` : parts.join('.');
}

/** run_results.json's relation_name, as dbt-sqlite writes it: `"schema"."name"`. */
export function relationName(node: { readonly alias: string; readonly schema: string }): string {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  return `${q(node.schema)}.${q(node.alias)}`;
}

/** The bracketed status of a result line: DELETE 4, INSERT 4 / SELECT 61 / CREATE VIEW / INSERT 1124. */
export function adapterMessage(kind: string, mode: string, deleted: number, inserted: number): { message: string; code: string; rows: number } {
  if (kind === 'seed') return { message: `INSERT ${inserted}`, code: 'INSERT', rows: inserted };
  if (mode === 'view') return { message: 'CREATE VIEW', code: 'CREATE VIEW', rows: 0 };
  if (mode === 'full') return { message: `SELECT ${inserted}`, code: 'SELECT', rows: inserted };
  if (deleted > 0 || kind === 'delete+insert') return { message: `DELETE ${deleted}, INSERT ${inserted}`, code: 'INSERT', rows: inserted };
  return { message: `INSERT ${inserted}`, code: 'INSERT', rows: inserted };
}

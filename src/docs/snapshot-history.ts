import type { SnapshotNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import type { DocsSnapshotHistory, DocsSnapshotKey } from './docs-data.js';

/** At most this many keys are read into the page (it is one self-contained file). */
export const HISTORY_KEY_LIMIT = 50;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/**
 * A snapshot's history by key, read from its table when the docs are generated: the first
 * HISTORY_KEY_LIMIT keys, those with more than one version first (in key order), each with its versions
 * oldest first (valid from, valid to, and the snapshotted columns). Null when the table is not built.
 */
export function snapshotHistory(db: Warehouse | undefined, node: SnapshotNode, limit = HISTORY_KEY_LIMIT): DocsSnapshotHistory | null {
  if (!db || !relationKind(db, node.alias, node.schema)) return null;
  const meta = node.settings.columns;
  const present = relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name);
  const keyColumns = node.settings.uniqueKey.filter((k) => present.includes(k));
  if (keyColumns.length !== node.settings.uniqueKey.length || !present.includes(meta.dbt_valid_from)) return null;
  const hidden = new Set([meta.dbt_scd_id, meta.dbt_updated_at, meta.dbt_valid_from, meta.dbt_valid_to, meta.dbt_is_deleted]);
  const columns = present.filter((c) => !hidden.has(c));
  const relation = qualifiedName(node.schema, node.alias);
  const keys = keyColumns.map(quoteIdentifier).join(', ');
  const totalKeys = Number(db.value(`select count(*) from (select 1 from ${relation} group by ${keys})`));
  const chosen = db.prepare(`select ${keys}, count(*) as "versions" from ${relation} group by ${keys} order by count(*) > 1 desc, ${keys} limit ?`).all(limit) as Record<string, unknown>[];
  const validTo = present.includes(meta.dbt_valid_to) ? quoteIdentifier(meta.dbt_valid_to) : 'null';
  const deleted = present.includes(meta.dbt_is_deleted) ? quoteIdentifier(meta.dbt_is_deleted) : 'null';
  const versionsOf = db.prepare(`
    select ${quoteIdentifier(meta.dbt_valid_from)} as "from", ${validTo} as "to", ${deleted} as "deleted"${columns.map((c) => `, ${quoteIdentifier(c)}`).join('')}
    from ${relation} where ${keyColumns.map((k) => `${quoteIdentifier(k)} is ?`).join(' and ')}
    order by ${quoteIdentifier(meta.dbt_valid_from)}, ${validTo}`);
  const out: DocsSnapshotKey[] = chosen.map((row) => {
    const values = keyColumns.map((k) => row[k]);
    const versions = (versionsOf.all(...values) as Record<string, unknown>[]).map((v) => ({
      validFrom: text(v.from),
      validTo: text(v.to),
      deleted: text(v.deleted),
      values: columns.map((c) => text(v[c])),
    }));
    return { key: values.map((v) => text(v) ?? 'null').join(', '), versions };
  });
  return {
    keyColumns,
    columns,
    validFrom: meta.dbt_valid_from,
    validTo: meta.dbt_valid_to,
    deletedColumn: present.includes(meta.dbt_is_deleted) ? meta.dbt_is_deleted : null,
    totalKeys,
    limit,
    keys: out,
  };
}

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
 * oldest first (valid from, valid to, and the snapshotted columns). Null when the table is not built;
 * `unavailable` says why a built one could not be read.
 */
export function snapshotHistory(db: Warehouse | undefined, node: SnapshotNode, limit = HISTORY_KEY_LIMIT): DocsSnapshotHistory | null {
  if (!db || !relationKind(db, node.alias, node.schema)) return null;
  const meta = node.settings.columns;
  const present = relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name);
  const empty: DocsSnapshotHistory = {
    keyColumns: node.settings.uniqueKey, columns: [], validFrom: meta.dbt_valid_from, validTo: meta.dbt_valid_to, deletedColumn: null, totalKeys: 0, limit, keys: [],
  };
  if (!present.includes(meta.dbt_valid_from)) return { ...empty, unavailable: `the table has no ${meta.dbt_valid_from} column` };
  try {
    return readHistory(db, node, present, limit);
  } catch (err) {
    return { ...empty, unavailable: err instanceof Error ? err.message : String(err) };
  }
}

function readHistory(db: Warehouse, node: SnapshotNode, present: readonly string[], limit: number): DocsSnapshotHistory {
  const meta = node.settings.columns;
  // unique_key is SQL, as the snapshot's own statements use it: a column, or an expression over columns.
  const keyColumns = node.settings.uniqueKey;
  const hidden = new Set([meta.dbt_scd_id, meta.dbt_updated_at, meta.dbt_valid_from, meta.dbt_valid_to, meta.dbt_is_deleted]);
  const columns = present.filter((c) => !hidden.has(c));
  const relation = qualifiedName(node.schema, node.alias);
  const keys = keyColumns.join(', ');
  const keyAliases = keyColumns.map((k, i) => `${k} as ${quoteIdentifier(`key_${i}`)}`).join(', ');
  const totalKeys = Number(db.value(`select count(*) from (select 1 from ${relation} group by ${keys}) as history_keys`));
  const chosen = db.prepare(`select ${keyAliases}, count(*) as "versions" from ${relation} group by ${keys} order by count(*) > 1 desc, ${keys} limit ?`).all(limit) as Record<string, unknown>[];
  const validTo = present.includes(meta.dbt_valid_to) ? quoteIdentifier(meta.dbt_valid_to) : 'null';
  const deleted = present.includes(meta.dbt_is_deleted) ? quoteIdentifier(meta.dbt_is_deleted) : 'null';
  // Oldest first; a version closed in the second it opened (two runs in one second) before the current one.
  const versionsOf = db.prepare(`
    select ${quoteIdentifier(meta.dbt_valid_from)}, ${validTo}, ${deleted}${columns.map((c) => `, ${quoteIdentifier(c)}`).join('')}
    from ${relation} where ${keyColumns.map((k) => `(${k}) is not distinct from ?`).join(' and ')}
    order by ${quoteIdentifier(meta.dbt_valid_from)}, ${validTo} is null, ${validTo}`);
  const out: DocsSnapshotKey[] = chosen.map((row) => {
    const values = keyColumns.map((_, i) => row[`key_${i}`]);
    // By position: a snapshotted column may have any name.
    const versions = versionsOf.rows(...values).map(([from, to, gone, ...rest]) => ({
      validFrom: text(from),
      validTo: text(to),
      deleted: text(gone),
      values: rest.map(text),
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

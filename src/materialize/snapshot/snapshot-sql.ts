import { dialect } from '../../engine/current-engine.js';
import { quoteIdentifier as q, quoteLiteral } from '../../engine/quote-identifier.js';
import type { SnapshotSettings } from '../../config/snapshot-settings.js';

/** What one snapshot run's statements need (pure: the caller knows the warehouse). */
export interface SnapshotSqlInput {
  readonly settings: SnapshotSettings;
  /** The snapshot's rendered SELECT. */
  readonly sourceSql: string;
  /** The snapshot table, qualified. */
  readonly target: string;
  /** The staging table of this run's changes, qualified (temp). */
  readonly staging: string;
  /** The columns the query returns (check_cols 'all' compares them all). */
  readonly sourceColumns: readonly string[];
  /** The run's time as SQL text (dbt's snapshot_get_time()). */
  readonly now: string;
}

/** dbt's snapshot_hash_arguments: md5 of the values cast to text, nulls as '', joined by '|'. */
export function hashArguments(args: readonly string[]): string {
  return `md5(${args.map((a) => `coalesce(cast(${a} as varchar), '')`).join(" || '|' || ")})`;
}

const keyAlias = (settings: SnapshotSettings, i: number) => (settings.uniqueKey.length === 1 ? 'dbt_unique_key' : `dbt_unique_key_${i + 1}`);
const keyFields = (s: SnapshotSettings) => s.uniqueKey.map((k, i) => `${k} as ${keyAlias(s, i)}`).join(', ');
const keyJoin = (s: SnapshotSettings, a: string, b: string) => s.uniqueKey.map((_, i) => `${a}.${keyAlias(s, i)} = ${b}.${keyAlias(s, i)}`).join(' and ');
const keyIsNull = (s: SnapshotSettings, a: string) => `${a}.${keyAlias(s, 0)} is null`;

/** The strategy's parts, as dbt's snapshot_timestamp_strategy / snapshot_check_strategy build them. */
export function strategyParts(input: SnapshotSqlInput): { updatedAt: string; scdId: string; rowChanged: (snap: string, cur: string) => string } {
  const { settings: s } = input;
  const updatedAt = s.updatedAt ?? input.now;
  const scdId = hashArguments([...s.uniqueKey, updatedAt]);
  if (s.strategy === 'timestamp') {
    return { updatedAt, scdId, rowChanged: (snap, cur) => `(${snap}.${q(s.columns.dbt_valid_from)} < ${cur}.${s.updatedAt})` };
  }
  const cols = s.checkCols === 'all' ? input.sourceColumns.map(q) : (s.checkCols ?? []);
  return {
    updatedAt,
    scdId,
    rowChanged: (snap, cur) => `(${cols.map((c) => `${snap}.${c} != ${cur}.${c} or ((${snap}.${c} is null) and not (${cur}.${c} is null)) or ((not ${snap}.${c} is null) and (${cur}.${c} is null))`).join(' or ')})`,
  };
}

const validToCurrent = (s: SnapshotSettings, updatedAt: string) => `coalesce(nullif(${updatedAt}, ${updatedAt}), ${s.validToCurrent ?? 'null'})`;

/** The first run: every row of the query, current (dbt's build_snapshot_table). */
export function buildSnapshotTable(input: SnapshotSqlInput): string {
  const s = input.settings;
  const { updatedAt, scdId } = strategyParts(input);
  const c = s.columns;
  const select = `select *,\n  ${scdId} as ${q(c.dbt_scd_id)},\n  ${updatedAt} as ${q(c.dbt_updated_at)},\n  ${updatedAt} as ${q(c.dbt_valid_from)},\n  ${validToCurrent(s, updatedAt)} as ${q(c.dbt_valid_to)}${s.hardDeletes === 'new_record' ? `,\n  'False' as ${q(c.dbt_is_deleted)}` : ''}\nfrom (\n${input.sourceSql}\n) sbq`;
  return dialect.createTableAs(input.target, select);
}

/** The rows current in the snapshot (dbt_valid_to null, or dbt_valid_to_current). */
export function currentRowsWhere(s: SnapshotSettings, alias?: string): string {
  const col = `${alias ? `${alias}.` : ''}${q(s.columns.dbt_valid_to)}`;
  return s.validToCurrent ? `(${col} = ${s.validToCurrent} or ${col} is null)` : `${col} is null`;
}

/**
 * The staging table of a later run: dbt's snapshot_staging_table (insertions, updates, deletes and, for
 * hard_deletes: new_record, deletion records), each row tagged with dbt_change_type.
 */
export function buildStagingTable(input: SnapshotSqlInput): string {
  const s = input.settings;
  const c = s.columns;
  const { updatedAt, scdId, rowChanged } = strategyParts(input);
  const newRecord = s.hardDeletes === 'new_record';
  const deletes = s.hardDeletes !== 'ignore';
  const isDeleted = `snapshotted_data.${q(c.dbt_is_deleted)} = 'True'`;
  const src = input.sourceColumns.map(q);
  const payload = (from: string) => src.map((col) => `${from}.${col}`).join(', ');
  const meta = (scd: string, upd: string, from: string, to: string, deleted?: string) =>
    `${scd} as ${q(c.dbt_scd_id)}, ${upd} as ${q(c.dbt_updated_at)}, ${from} as ${q(c.dbt_valid_from)}, ${to} as ${q(c.dbt_valid_to)}${newRecord ? `, ${deleted ?? "'False'"} as ${q(c.dbt_is_deleted)}` : ''}`;
  const ctes = [
    `snapshot_query as (\n${input.sourceSql}\n)`,
    `snapshotted_data as (select *, ${keyFields(s)} from ${input.target} where ${currentRowsWhere(s)})`,
    `source_data as (select *, ${keyFields(s)}, ${updatedAt} as dbt_internal_updated_at, ${scdId} as dbt_internal_scd_id from snapshot_query)`,
    `insertions as (select 'insert' as dbt_change_type, ${payload('source_data')}, ${meta('source_data.dbt_internal_scd_id', 'source_data.dbt_internal_updated_at', 'source_data.dbt_internal_updated_at', validToCurrent(s, 'source_data.dbt_internal_updated_at'))}, case when ${keyIsNull(s, 'snapshotted_data')} then 'new' else 'changed' end as dbt_key_class
  from source_data left outer join snapshotted_data on ${keyJoin(s, 'snapshotted_data', 'source_data')}
  where ${keyIsNull(s, 'snapshotted_data')} or (not ${keyIsNull(s, 'snapshotted_data')} and (${rowChanged('snapshotted_data', 'source_data')}${newRecord ? ` or ${isDeleted}` : ''})))`,
    `updates as (select 'update' as dbt_change_type, ${payload('source_data')}, ${meta('snapshotted_data.' + q(c.dbt_scd_id), 'source_data.dbt_internal_updated_at', 'source_data.dbt_internal_updated_at', 'source_data.dbt_internal_updated_at', newRecord ? `snapshotted_data.${q(c.dbt_is_deleted)}` : undefined)}, 'changed' as dbt_key_class
  from source_data join snapshotted_data on ${keyJoin(s, 'snapshotted_data', 'source_data')}
  where (${rowChanged('snapshotted_data', 'source_data')}${newRecord ? ` or ${isDeleted}` : ''}))`,
  ];
  const notAlreadyDeleted = newRecord ? ` and not (${isDeleted} and ${currentRowsWhere(s, 'snapshotted_data')})` : '';
  if (deletes) {
    ctes.push(`deletes as (select 'delete' as dbt_change_type, ${payload('snapshotted_data')}, ${meta('snapshotted_data.' + q(c.dbt_scd_id), input.now, input.now, input.now, newRecord ? `snapshotted_data.${q(c.dbt_is_deleted)}` : undefined)}, 'deleted' as dbt_key_class
  from snapshotted_data left join source_data on ${keyJoin(s, 'snapshotted_data', 'source_data')}
  where ${keyIsNull(s, 'source_data')}${notAlreadyDeleted})`);
  }
  if (newRecord) {
    ctes.push(`deletion_records as (select 'insert' as dbt_change_type, ${payload('snapshotted_data')}, ${meta(hashArguments([`snapshotted_data.${q(c.dbt_scd_id)}`, input.now]), input.now, input.now, `snapshotted_data.${q(c.dbt_valid_to)}`, "'True'")}, 'deleted' as dbt_key_class
  from snapshotted_data left join source_data on ${keyJoin(s, 'snapshotted_data', 'source_data')}
  where ${keyIsNull(s, 'source_data')}${notAlreadyDeleted})`);
  }
  const parts = ['insertions', 'updates', ...(deletes ? ['deletes'] : []), ...(newRecord ? ['deletion_records'] : [])];
  const select = `with ${ctes.join(',\n')}\n${parts.map((p) => `select * from ${p}`).join('\nunion all\n')}`;
  return dialect.createTableAs(input.staging, select, { temp: true });
}

/** Close the rows the staging table updates or deletes (dbt's snapshot_merge_sql, its update half). */
export function closeChangedRows(input: SnapshotSqlInput): string {
  const c = input.settings.columns;
  return `update ${input.target} set ${q(c.dbt_valid_to)} = (select st.${q(c.dbt_valid_to)} from ${input.staging} st where st.${q(c.dbt_scd_id)} = ${input.target}.${q(c.dbt_scd_id)} and st.dbt_change_type in ('update', 'delete') limit 1)
where ${currentRowsWhere(input.settings)} and ${q(c.dbt_scd_id)} in (select ${q(c.dbt_scd_id)} from ${input.staging} where dbt_change_type in ('update', 'delete'))`;
}

/** Insert the new versions (dbt's snapshot_merge_sql, its insert half). */
export function insertNewRows(input: SnapshotSqlInput, targetColumns: readonly string[]): string {
  const cols = targetColumns.map(q).join(', ');
  return `insert into ${input.target} (${cols}) select ${cols} from ${input.staging} where dbt_change_type = 'insert'`;
}

/**
 * The run's time, 'YYYY-MM-DD HH:MM:SS' in UTC, as a value of `type`: dbt-sqlite's snapshot_get_time() is
 * that text; dbt-postgres's is a timestamp without time zone. A later run passes the type of the snapshot's
 * dbt_valid_from column, so a time it writes (a deleted row's dbt_valid_to) has the type of the rest.
 */
export function snapshotTime(at: Date, type = 'timestamp'): string {
  return dialect.typed(quoteLiteral(at.toISOString().slice(0, 19).replace('T', ' ')), type);
}

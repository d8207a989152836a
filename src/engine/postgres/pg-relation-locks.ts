import type { Warehouse } from '../open-warehouse.js';
import type { RelationLockHolder, RelationLocks } from '../relation-locks.js';
import { PostgresConnection } from './pg-connection.js';
import { ADVISORY_NAMESPACE } from './pg-advisory-namespace.js';

/** The first key of mini-dbt's advisory locks ('MDBT'), the second is the hash of the relation's name. */
const NAMESPACE = ADVISORY_NAMESPACE;

/** A tag ` mini-dbt:<uuid>` at the end of the application name (PostgreSQL keeps 63 bytes of it). */
const TAG = / mini-dbt:([0-9a-f-]{36})$/;

/**
 * Relation locks on PostgreSQL: session advisory locks keyed on the
 * relation's quoted name. pg_advisory_lock waits as long as lock_timeout
 * (the busy timeout) and then fails with 55P03, the engine's busy error.
 */
export const pgRelationLocks: RelationLocks = {
  acquire: (db, relation) => {
    db.value(`select pg_advisory_lock(${NAMESPACE}, hashtext(?))`, relation);
  },
  release: (db, relation) => {
    withoutAnswer(db, `select pg_advisory_unlock(${NAMESPACE}, hashtext(?))`, relation);
  },
  holders: (db, relation) =>
    db.all<RelationLockHolder>(
      `select a.pid as "backendPid", coalesce(a.application_name, '') as "applicationName", coalesce(a.usename::text, '') as "user",
              coalesce(host(a.client_addr), 'local socket') as client, a.xact_start::text as since
       from pg_locks l join pg_stat_activity a on a.pid = l.pid
       where l.locktype = 'advisory' and l.granted and l.database = (select oid from pg_database where datname = current_database())
         and l.classid::text::bigint = ${NAMESPACE} and l.objid::text::bigint = (hashtext(?)::bigint & 4294967295) and l.objsubid = 2
         and l.pid <> pg_backend_pid()`,
      relation,
    ),
  tagSession: (db, invocationId) => {
    // The name the profile gave, cut so the tag fits in PostgreSQL's 63 bytes.
    withoutAnswer(db, `select set_config('application_name', left(regexp_replace(current_setting('application_name'), ' mini-dbt:[0-9a-f-]{36}$', ''), 17) || ' mini-dbt:' || ?, false)`, invocationId);
  },
  invocationOf: (holder) => TAG.exec(holder.applicationName)?.[1],
};

/** An unlock or a session tag needs no answer: posted without a round trip of its own where the connection can (PostgresConnection.post). */
function withoutAnswer(db: Warehouse, sql: string, param: string): void {
  if (db instanceof PostgresConnection) db.post(sql, param);
  else db.value(sql, param);
}

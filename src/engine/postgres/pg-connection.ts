import { CopyRowError, MultipleStatementsError, type StatementBatch, type BindParameters, type BulkLoad, type BulkLoadOptions, type Connection, type PreparedStatement, type RunResult } from '../connection.js';
import { outerComments } from '../outer-comments.js';
import { RESERVED_PREFIX } from '../../project/reserved-names.js';
import { numberPlaceholders } from './pg-placeholders.js';
import { holdsSeveralStatements } from './pg-statement-count.js';
import { PgError, PgSyncClient, type PgResult } from './pg-sync-client.js';
import { PgStatement } from './pg-statement.js';
import { pgColumnTypes } from './pg-type-names.js';
import { ConnectionLostError } from '../connection-lost.js';
import { copySchema } from './pg-copy-schema.js';
import { ADVISORY_NAMESPACE } from './pg-advisory-namespace.js';
import { putViewsBack, readViewDefinitions, type ViewKeeperConnection } from './pg-kept-views.js';
import { parseTextArray } from './pg-text-array.js';

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The advisory lock (its second key the hash of this reserved name) that publishes rewriting views take in turn. */
const VIEWS_LOCK = `${RESERVED_PREFIX}views`;

/** The commands whose row count is rows changed (a SELECT's is rows returned). */
const CHANGING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'COPY']);

/** What a closed connection talks to: every call fails, as a closed connection's calls always did. */
const CLOSED = new Proxy({} as PgSyncClient, {
  get: (_target, property) => (property === 'requests' ? -1 : () => {
    throw new PgError({ message: 'the connection is closed' });
  }),
});

/** The savepoint a batch of statements starts with (left open when they succeed: COMMIT ends it). */
const BATCH_SAVEPOINT = 'mini_dbt_batch';

/** What the server says for a text holding several statements sent as one. */
const isSeveralStatementsError = (err: unknown): boolean => err instanceof PgError && err.code === '42601' && /multiple commands/.test(err.message);

/**
 * A Connection on a PostgreSQL database (see pg-sync-client.ts for how an
 * asynchronous driver answers synchronously). The target's schema plays
 * SQLite's `main`: the connection's search_path starts with it, and the
 * introspection methods read `main` as that schema.
 */
export class PostgresConnection implements Connection {
  private depth = 0;
  private dropsCascade = false;
  /** Closed: its server connection may serve another open already. */
  private ended = false;
  /** The columns the last relationKind read, good until the connection's next request (PgSyncClient.requests). */
  private described: { readonly key: string; readonly statement: number; readonly columns: readonly { name: string; type: string }[] } | undefined;

  /** `serverVersion`: the server's server_version_num (150004 for 15.4). */
  /** `key`: the target it was opened for (pgConnectionKey), under which close() releases it for the next open. */
  constructor(readonly path: string, readonly readonly: boolean, private client: PgSyncClient, private readonly mainSchema: string, readonly serverVersion: number, private readonly key?: string) {}

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** One statement, values bound (`?` or named). */
  query(sql: string, params: BindParameters, rowMode?: 'array'): PgResult {
    if (holdsSeveralStatements(sql)) throw new MultipleStatementsError();
    const { text, values } = numberPlaceholders(this.cascaded(sql), params);
    try {
      return this.client.query(text, values, { rowMode, extended: true })[0]!;
    } catch (err) {
      if (isSeveralStatementsError(err)) throw new MultipleStatementsError((err as Error).message);
      throw err;
    }
  }

  /** Inside withViewsUntouched, a DROP TABLE or VIEW takes the views on it along (they are put back after). */
  private cascaded(sql: string): string {
    if (!this.dropsCascade) return sql;
    // Read without a query comment before or after it (query-comment-connection.ts), which stays where it was.
    const { lead, core, trail } = outerComments(sql);
    if (!/^drop\s+(table|view)\b/i.test(core)) return sql;
    return /\bcascade\s*;?\s*$/i.test(core) ? sql : `${lead}${core.replace(/;?\s*$/, '')} cascade${trail}`;
  }

  /**
   * One statement whose answer is not needed now (values bound as in query): posted without
   * waiting; the next call reads its answer, and raises its error if it failed (see PgSyncClient.send).
   */
  post(sql: string, ...params: BindParameters): void {
    const { text, values } = numberPlaceholders(this.cascaded(sql), params);
    this.client.send(text, values);
  }

  exec(sql: string): void {
    if (!holdsSeveralStatements(sql)) {
      this.query(sql, []);
      return;
    }
    this.client.script(sql);
  }

  runScript(sql: string): number {
    const results = holdsSeveralStatements(sql) ? this.client.script(sql) : [this.query(sql, [])];
    return results.reduce((sum, r) => sum + (CHANGING.has(r.command) ? r.rowCount : 0), 0);
  }

  prepare<Row = unknown>(sql: string): PreparedStatement<Row> {
    if (holdsSeveralStatements(sql)) throw new MultipleStatementsError();
    return new PgStatement<Row>(this, sql);
  }

  /**
   * The statements as one script after a savepoint (one round trip; see
   * Connection.runBatch). Refused by the server, the transaction goes back to
   * the savepoint and nothing is returned; a statement with placeholders is
   * not sent this way.
   */
  runBatch(sqls: readonly string[]): StatementBatch | undefined {
    if (this.depth === 0 || sqls.some((sql) => holdsSeveralStatements(sql) || numberPlaceholders(sql, []).values !== undefined)) return undefined;
    const undo = () => {
      this.client.query(`rollback to savepoint ${BATCH_SAVEPOINT}`, undefined, { extended: false });
    };
    let results: PgResult[];
    try {
      // A line of its own between them: a statement ending in a -- comment does not swallow the next.
      results = this.client.script([`savepoint ${BATCH_SAVEPOINT}`, ...sqls.map((sql) => this.cascaded(sql))].join('\n;\n'), 'array');
    } catch (err) {
      if (err instanceof ConnectionLostError) throw err;
      try {
        undo();
      } catch {
        throw err;
      }
      return undefined;
    }
    const own = results.slice(1);
    if (own.length !== sqls.length) {
      undo();
      return undefined;
    }
    return { results: own.map((r) => ({ fields: r.fields, rows: r.rows as unknown[][], changes: CHANGING.has(r.command) ? r.rowCount : 0 })), undo };
  }

  runDeferred(sql: string, ...params: BindParameters): void {
    if (holdsSeveralStatements(sql)) throw new MultipleStatementsError();
    this.post(sql, ...params);
  }

  run(sql: string, ...params: BindParameters): RunResult {
    const r = this.query(sql, params);
    return { changes: CHANGING.has(r.command) ? r.rowCount : 0, lastInsertRowid: 0 };
  }

  get<Row = unknown>(sql: string, ...params: BindParameters): Row | undefined {
    return this.query(sql, params).rows[0] as Row | undefined;
  }

  all<Row = unknown>(sql: string, ...params: BindParameters): Row[] {
    return this.query(sql, params).rows as Row[];
  }

  value(sql: string, ...params: BindParameters): unknown {
    return (this.query(sql, params, 'array').rows[0] as unknown[] | undefined)?.[0];
  }

  values(sql: string, ...params: BindParameters): unknown[] {
    return (this.query(sql, params, 'array').rows as unknown[][]).map((r) => r[0]);
  }

  /** BEGIN is posted without waiting: its answer (an error only on a broken connection) is read with the next statement's. */
  begin(): void {
    this.client.send('begin');
    this.depth = 1;
  }

  commit(): void {
    this.client.query('commit', undefined, { extended: false });
    this.depth = 0;
  }

  rollback(): void {
    if (this.depth === 0) return;
    this.depth = 0;
    this.client.query('rollback', undefined, { extended: false });
  }

  /** A transaction; nested, a savepoint (as better-sqlite3 nests them). */
  transaction<T>(fn: () => T): T {
    if (this.depth > 0) {
      const name = `mini_dbt_sp_${this.depth}`;
      this.client.query(`savepoint ${name}`, undefined, { extended: false });
      this.depth++;
      try {
        const result = fn();
        this.client.query(`release savepoint ${name}`, undefined, { extended: false });
        return result;
      } catch (err) {
        this.client.query(`rollback to savepoint ${name}`, undefined, { extended: false });
        throw err;
      } finally {
        this.depth--;
      }
    }
    this.begin();
    try {
      const result = fn();
      this.commit();
      return result;
    } catch (err) {
      try {
        this.rollback();
      } catch {
        // the connection is gone: the server rolled back already
      }
      throw err;
    }
  }

  /** The busy timeout is PostgreSQL's lock_timeout: how long a statement waits for another session's lock. */
  setBusyTimeout(ms: number): void {
    this.client.send(`set lock_timeout = ${Math.max(0, Math.floor(ms))}`);
  }

  /**
   * PostgreSQL binds a view to a table itself, not to its name: renaming
   * the table takes the view along, and a table with views on it cannot be
   * dropped. So the views of the user's schemas are read first, a DROP TABLE
   * inside `fn` cascades to its views, and every view that went is created
   * again, by name, after `fn` (in the same transaction: it sees the new table).
   */
  withViewsUntouched<T>(fn: () => T): T {
    // One such publish at a time in the database, to its commit: two nodes (--threads) whose tables
    // share a view would each drop it (cascade) and put it back reading the other's table, and
    // deadlock. Posted: the views' read waits behind it, no round trip of its own.
    if (this.inTransaction) this.client.send(`select pg_advisory_xact_lock(${ADVISORY_NAMESPACE}, hashtext('${VIEWS_LOCK}'))`);
    const views = readViewDefinitions(this.viewKeeper);
    this.dropsCascade = true;
    let result: T;
    try {
      result = fn();
    } finally {
      this.dropsCascade = false;
    }
    putViewsBack(this.viewKeeper, views);
    return result;
  }

  /** This connection as reading and putting back views needs it (pg-kept-views.ts). */
  private get viewKeeper(): ViewKeeperConnection {
    const connection = this;
    return {
      query: (sql, params) => connection.query(sql, params as BindParameters),
      send: (sql) => connection.client.send(sql),
      get inTransaction() {
        return connection.inTransaction;
      },
    };
  }

  /** A copy of a schema into another one of the same database (`path` names the new schema: PostgreSQL has no database files). */
  copyTo(path: string, schema = 'main'): void {
    copySchema(this, this.schemaOf(schema), path);
  }

  /** The session ends for this connection; the server connection is kept a while for the process's next open of the target (PgSyncClient.release). */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    const client = this.client;
    // Used after close, this connection says so: its server connection may already serve another open.
    this.client = CLOSED;
    if (this.key === undefined) client.close();
    else client.release(this.key);
  }

  /** A schema is created (PostgreSQL's schemas are not files: `path` is unused). */
  attachSchema(name: string, _path: string): void {
    if (this.readonly || this.schemaOf(name) === this.mainSchema) return;
    // Only when missing: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the schema is there.
    if (this.value('select 1 from pg_namespace where nspname = ?', name) === undefined) this.exec(`create schema if not exists ${quoteName(name)}`);
  }

  attachedSchemas(): string[] {
    const others = this.values(
      `select nspname from pg_namespace where nspname not in ('pg_catalog', 'information_schema', 'public', ?) and nspname not like 'pg\\_%' order by nspname`,
      this.mainSchema,
    ) as string[];
    return ['main', ...others];
  }

  /** SQLite's `main` is the target's schema. */
  private schemaOf(schema: string): string {
    return schema === 'main' ? this.mainSchema : schema;
  }

  private namespace(options?: { readonly temp?: boolean; readonly schema?: string }): { sql: string; param?: string } {
    return options?.temp ? { sql: 'c.relnamespace = pg_my_temp_schema()' } : { sql: 'n.nspname = ?', param: this.schemaOf(options?.schema ?? 'main') };
  }

  /**
   * Whether `name` exists, and as what. Its columns come in the same round
   * trip: planning asks for them next (relationColumns takes them when no
   * statement ran on this connection in between).
   */
  relationKind(name: string, schema = 'main'): 'table' | 'view' | null {
    const where = this.schemaOf(schema);
    const row = this.query(
      `select c.relkind as kind,
         (select json_agg(json_build_array(a.attname, format_type(a.atttypid, a.atttypmod)) order by a.attnum)
          from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and c.relname = ? and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
      [where, name],
    ).rows[0] as { kind: string; columns: string | null } | undefined;
    if (row === undefined) return null;
    const columns = (JSON.parse(row.columns ?? '[]') as [string, string][]).map(([column, type]) => ({ name: column, type }));
    this.described = { key: `${where}\u0000${name}`, statement: this.client.requests, columns };
    return row.kind === 'v' ? 'view' : 'table';
  }

  relationColumns(name: string, options?: { readonly temp?: boolean; readonly schema?: string }): { name: string; type: string }[] {
    const known = this.described;
    if (known && !options?.temp && known.statement === this.client.requests && known.key === `${this.schemaOf(options?.schema ?? 'main')}\u0000${name}`) {
      return known.columns.map((c) => ({ ...c }));
    }
    const where = this.namespace(options);
    return this.all<{ name: string; type: string }>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       where ${where.sql} and c.relname = ? and a.attnum > 0 and not a.attisdropped
       order by a.attnum`,
      ...(where.param === undefined ? [] : [where.param]),
      name,
    );
  }

  relationIndexes(name: string, options?: { readonly withConstraints?: boolean; readonly schema?: string }): { name: string; columns: string[]; unique: boolean }[] {
    const rows = this.all<{ name: string; unique: boolean; columns: (string | null)[] }>(
      `select i.relname as name, x.indisunique as unique,
         array(select a.attname from unnest(x.indkey) with ordinality as k(attnum, ord)
               left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum order by k.ord) as columns
       from pg_index x
       join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
       join pg_class i on i.oid = x.indexrelid
       where n.nspname = ? and t.relname = ?${options?.withConstraints ? '' : ' and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)'}
       order by i.relname`,
      this.schemaOf(options?.schema ?? 'main'),
      name,
    );
    return rows.map((r) => ({ name: r.name, unique: r.unique, columns: parseTextArray(r.columns) }));
  }

  schemaObject(name: string, schema = 'main'): { type: string; table: string } | undefined {
    const row = this.get<{ kind: string; name: string; tbl: string | null }>(
      `select c.relkind as kind, c.relname as name, (select t.relname from pg_index x join pg_class t on t.oid = x.indrelid where x.indexrelid = c.oid) as tbl
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and lower(c.relname) = lower(?) limit 1`,
      this.schemaOf(schema),
      name,
    );
    if (!row) return undefined;
    const type = row.kind === 'v' ? 'view' : row.kind === 'i' || row.kind === 'I' ? 'index' : row.kind === 'S' ? 'sequence' : 'table';
    return { type, table: row.tbl ?? row.name };
  }

  hasTable(name: string): boolean {
    return this.relationKind(name) === 'table';
  }

  /**
   * The SELECT run with LIMIT 0 (one round trip, nothing written): the
   * server's description of its result gives the columns and their types
   * (see pg-type-names.ts), as a CREATE TABLE AS of it would declare them.
   */
  describeSelect(sql: string): { name: string; type: string }[] {
    const result = this.query(`select * from (\n${sql}\n) as mini_dbt_probe limit 0`, [], 'array');
    const reader = { query: (text: string, values: readonly unknown[]) => this.client.query(text, values)[0]! };
    return pgColumnTypes(reader, result.fields, result.types ?? []);
  }

  /**
   * COPY ... FROM STDIN (text format), left open for the caller's writes (see BulkLoad). Into a
   * table created in this transaction (not inside a savepoint), FREEZE: the rows are written frozen
   * and their pages all-visible, as the server allows for a table no other session can see yet.
   */
  copyIn(relation: string, columns: readonly string[], options?: BulkLoadOptions): BulkLoad {
    const freeze = options?.createdInTransaction === true && this.depth === 1;
    this.client.copyStart(`copy ${relation} (${columns.join(', ')}) from stdin${freeze ? ' with (freeze)' : ''}`);
    const client = this.client;
    return {
      write: (chunks) => copyCall(() => client.copyWrite(chunks)),
      end: () => copyCall(() => client.copyEnd()),
    };
  }
}

/** A COPY call, a refused row as a CopyRowError: the server names it as `COPY t, line 3, column a: "x"`. */
function copyCall<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    const at = err instanceof PgError ? /\bline (\d+)(?:, column ([^:]+))?/.exec(err.where ?? '') : null;
    if (at) throw new CopyRowError(err instanceof Error ? err.message : String(err), Number(at[1]), at[2]);
    throw err;
  }
}

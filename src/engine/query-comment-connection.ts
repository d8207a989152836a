import type { Connection } from './connection.js';

/** The comment a connection puts on each statement now (dbt's _QueryComment): its text and where it goes. */
export interface QueryComment {
  /** Already rendered; empty or blank: no comment. */
  readonly text: string;
  /** After the statement (before its last `;`) instead of before it. */
  readonly append: boolean;
}

/**
 * `sql` with `comment` on it, as dbt-adapters' _QueryComment.add writes it: `/* text *\/` and a
 * newline before the statement, or (append) a newline and the comment after it, before a final
 * `;`. The text is trimmed; a blank one adds nothing.
 */
export function addQueryComment(sql: string, comment: QueryComment | undefined): string {
  if (comment === undefined) return sql;
  const text = comment.text.trim();
  if (text === '') return sql;
  if (!comment.append) return `/* ${text} */\n${sql}`;
  const body = sql.trimEnd();
  return body.endsWith(';') ? `${body.slice(0, -1)}\n/* ${text} */;` : `${body}\n/* ${text} */`;
}

/** The methods of a Connection whose first argument is SQL text (runBatch: a list of them). */
const TAKES_SQL = new Set(['exec', 'runScript', 'prepare', 'run', 'runDeferred', 'get', 'all', 'value', 'values', 'describeSelect']);

const current = new WeakMap<object, { comment: QueryComment | undefined }>();

/**
 * `db` as a connection that puts the comment set with setQueryComment on every statement it is
 * given (dbt's adapters add the query comment in add_query: every statement, the materializations'
 * and the introspection's). Everything else is `db`'s own; closing it closes `db`.
 */
export function withQueryComments<C extends Connection>(db: C): C {
  if (current.has(db)) return db;
  const slot: { comment: QueryComment | undefined } = { comment: undefined };
  // Each method is wrapped (or bound) once, on first use: a run reaches the connection's methods a few
  // hundred times, and a closure made at every access is garbage the nightly's time pays for.
  const methods = new Map<PropertyKey, unknown>();
  const wrapped = new Proxy(db, {
    get(target, property, _receiver) {
      const known = methods.get(property);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      const method = typeof property === 'string' && TAKES_SQL.has(property)
        ? (sql: string, ...rest: unknown[]) => fn.call(target, addQueryComment(sql, slot.comment), ...rest)
        : property === 'runBatch'
          ? (sqls: readonly string[]) => fn.call(target, slot.comment === undefined ? sqls : sqls.map((s) => addQueryComment(s, slot.comment)))
          : fn.bind(target);
      methods.set(property, method);
      return method;
    },
  });
  current.set(wrapped, slot);
  return wrapped;
}

/**
 * Set the comment `db` puts on its statements from now on (undefined: none); returns the one it
 * had, for the caller to put back. Nothing for a connection not made by withQueryComments.
 */
export function setQueryComment(db: Connection, comment: QueryComment | undefined): QueryComment | undefined {
  const slot = current.get(db);
  if (!slot) return undefined;
  const previous = slot.comment;
  slot.comment = comment;
  return previous;
}

/** Whether `db` comments its statements (made by withQueryComments). */
export function takesQueryComments(db: Connection): boolean {
  return current.has(db);
}

import type { Engine } from '../engine.js';
import { isSqliteBusyError, openSqlite } from './sqlite-connection.js';
import { sqliteDialect } from './sqlite-dialect.js';

/** The SQLite engine (better-sqlite3): a warehouse is one file, opened in WAL mode. */
export const sqliteEngine: Engine = {
  name: 'sqlite',
  dialect: sqliteDialect,
  open: openSqlite,
  isBusyError: isSqliteBusyError,
  isInMemory: (path) => path === ':memory:' || path === '',
};

import type { ModelSettings } from '../config/model-settings.js';
import type { PlannedStatement } from './planned-statement.js';

/**
 * The model's sql_header as the statement run just before the one that creates its relation (a
 * table's or an incremental's staged rows, a view), inside the publish transaction on the same
 * connection: dbt's materializations put `{{ sql_header }}` above `create ... as` in one query.
 * It is the project's own config (as a hook is), not model SQL: it may hold several statements,
 * and runs as a script. None when unset.
 */
export function sqlHeaderStatements(settings: Pick<ModelSettings, 'sqlHeader'>): PlannedStatement[] {
  return settings.sqlHeader === undefined ? [] : [{ kind: 'exec', role: 'sql-header', sql: settings.sqlHeader.trim() }];
}

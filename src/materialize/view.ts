import { qualifiedName } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import type { RelationKind } from '../engine/relation-kind.js';
import type { ModelSettings } from '../config/model-settings.js';
import type { PlannedStatement } from './planned-statement.js';
import { hookStatements } from './hook-statements.js';
import { sqlHeaderStatements } from './sql-header-statement.js';

/**
 * A view: SQLite cannot rename views, so the old relation is dropped and the
 * view created in the same transaction (atomic: readers never see neither).
 */
export function viewStatements(alias: string, sql: string, existing: RelationKind | null, settings: ModelSettings, schema = 'main'): PlannedStatement[] {
  const q = qualifiedName(schema, alias);
  // sql_header before the drop: the drop and the create stay one legacy-alter group.
  const statements: PlannedStatement[] = [...hookStatements(settings, 'pre_hook'), ...sqlHeaderStatements(settings)];
  // The drop and the create run as one withViewsUntouched: views the user put on this one stand again after (PostgreSQL drops them along).
  if (existing) statements.push({ kind: 'exec', role: 'drop', legacyAlter: true, sql: dialect.dropRelation(existing, q) });
  statements.push({ kind: 'exec', role: 'create-view', ...(existing ? { legacyAlter: true } : {}), sql: dialect.createView(q, sql) }, ...hookStatements(settings, 'post_hook'));
  return statements;
}

import { quoteIdentifier } from '../db/quote-identifier.js';
import type { RelationKind } from '../db/relation-kind.js';
import type { NodeConfig } from '../compile/manifest.js';
import type { PlannedStatement } from './planned-statement.js';
import { hookStatements } from './hook-statements.js';

/**
 * A view: SQLite cannot rename views, so the old relation is dropped and the
 * view created in the same transaction (atomic: readers never see neither).
 */
export function viewStatements(alias: string, sql: string, existing: RelationKind | null, config: NodeConfig): PlannedStatement[] {
  const q = quoteIdentifier(alias);
  const statements: PlannedStatement[] = [...hookStatements(config, 'pre_hook')];
  if (existing) statements.push({ kind: 'exec', role: 'drop', sql: `drop ${existing} ${q}` });
  statements.push({ kind: 'exec', role: 'create-view', sql: `create view ${q} as\n${sql}` }, ...hookStatements(config, 'post_hook'));
  return statements;
}

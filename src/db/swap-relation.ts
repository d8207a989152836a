import type { Warehouse } from './open-warehouse.js';
import { quoteIdentifier } from './quote-identifier.js';
import { relationKind } from './relation-kind.js';

/**
 * Replace relation `target` by the freshly built table `staged`. Must run
 * inside the caller's transaction, so the old relation stays in place when
 * anything fails.
 *
 * SQLite rewrites view text on ALTER TABLE ... RENAME and refuses a rename
 * while a view names a missing table; with legacy_alter_table on, it does
 * neither, so views that select from `target` keep pointing at the name and
 * see the new table after the swap.
 */
export function swapRelation(db: Warehouse, staged: string, target: string): string[] {
  const statements: string[] = [];
  const existing = relationKind(db, target);
  if (existing === 'view') statements.push(`drop view ${quoteIdentifier(target)}`);
  if (existing === 'table') statements.push(`drop table ${quoteIdentifier(target)}`);
  statements.push(`alter table ${quoteIdentifier(staged)} rename to ${quoteIdentifier(target)}`);
  const legacy = db.pragma('legacy_alter_table', { simple: true });
  db.pragma('legacy_alter_table = ON');
  try {
    for (const sql of statements) db.exec(sql);
  } finally {
    db.pragma(`legacy_alter_table = ${legacy ? 'ON' : 'OFF'}`);
  }
  return statements;
}

import { dialect } from './current-engine.js';
import type { Warehouse } from './open-warehouse.js';

/**
 * Replace relation `target` by the freshly built table `staged`. Must run
 * inside the caller's transaction, so the old relation stays in place when
 * anything fails. Views that select from `target` keep pointing at the name
 * and see the new table after the swap (the connection's withViewsUntouched).
 */
export function swapRelation(db: Warehouse, staged: string, target: string): string[] {
  const statements: string[] = [];
  const existing = db.relationKind(target);
  if (existing) statements.push(dialect.dropRelation(existing, dialect.quoteIdentifier(target)));
  statements.push(dialect.renameTable(dialect.quoteIdentifier(staged), dialect.quoteIdentifier(target)));
  db.withViewsUntouched(() => {
    for (const sql of statements) db.exec(sql);
  });
  return statements;
}

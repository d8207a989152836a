import { dialect } from './current-engine.js';
import type { Warehouse } from './open-warehouse.js';
import { qualifiedName } from './quote-identifier.js';

/**
 * Replace relation `target` by the freshly built table `staged`. Must run
 * inside the caller's transaction, so the old relation stays in place when
 * anything fails. Views that select from `target` keep pointing at the name
 * and see the new table after the swap (the connection's withViewsUntouched).
 */
export function swapRelation(db: Warehouse, staged: string, target: string, schema = 'main'): string[] {
  const statements: string[] = [];
  const existing = db.relationKind(target, schema);
  if (existing) statements.push(dialect.dropRelation(existing, qualifiedName(schema, target)));
  statements.push(dialect.renameTable(qualifiedName(schema, staged), dialect.quoteIdentifier(target)));
  db.withViewsUntouched(() => {
    for (const sql of statements) db.exec(sql);
  });
  return statements;
}

import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';

/**
 * Every user table's full contents and every schema object's SQL, so a test
 * can prove a failed command changed nothing (ledger tables excluded: they
 * record the failure on purpose).
 */
export function warehouseSnapshot(path: string): Record<string, unknown> {
  if (!existsSync(path)) return { missing: true };
  const db = new Database(path, { readonly: true });
  try {
    try {
      db.prepare('select count(*) from sqlite_master').get();
    } catch {
      // Not a database at all: compare the bytes.
      return { notADatabase: readFileSync(path).toString('base64') };
    }
    const objects = db
      .prepare("select type, name, sql from sqlite_master where name not like '\\_mini\\_dbt\\_%' escape '\\' and name not like 'sqlite_%' order by type, name")
      .all() as { type: string; name: string; sql: string }[];
    const snapshot: Record<string, unknown> = { schema: objects };
    for (const o of objects.filter((x) => x.type === 'table')) {
      const q = (n: string) => `"${n.replace(/"/g, '""')}"`;
      const cols = (db.prepare('select name from pragma_table_info(?)').all(o.name) as { name: string }[]).map((c) => q(c.name));
      snapshot[o.name] = db.prepare(`select * from ${q(o.name)} order by ${cols.join(', ')}`).all();
    }
    return snapshot;
  } finally {
    db.close();
  }
}

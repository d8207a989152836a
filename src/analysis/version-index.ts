import type { SeedNode, SourceNode } from '../compile/manifest.js';
import { columnLeadsIndex } from '../engine/column-leads-index.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { RESERVED_INFIX } from '../project/reserved-names.js';

/**
 * An index on a raw input's id column, made in a replay's scratch copy the
 * first time a day goes stale there: wentStale looks up the previous version
 * of each late row's order by its id, a scan of the whole raw table per row
 * without one (about 40 ms each on 1.2 million rows; a seek with it). It is
 * dropped again by `drop` (before the copy is kept), so the copy is the
 * live warehouse's, runs aside. Nothing is made when an index already
 * starts with the column.
 */
export class VersionIndexes {
  private readonly made = new Map<string, string>();
  private readonly seen = new Set<string>();

  constructor(private readonly db: Warehouse) {}

  /** Make sure `column` of `source` leads an index. */
  ensure(source: SeedNode | SourceNode, column: string): void {
    const key = `${source.schema}\0${source.alias}\0${column}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.db.relationKind(source.alias, source.schema) !== 'table' || columnLeadsIndex(this.db, source.alias, column, source.schema)) return;
    const name = qualifiedName(source.schema, `${source.alias}${RESERVED_INFIX}versions`);
    this.db.exec(dialect.createIndex({ name, table: quoteIdentifier(source.alias), columns: quoteIdentifier(column), ifNotExists: true }));
    this.made.set(key, name);
  }

  /** Drop every index made (the next `ensure` makes it again). */
  drop(): void {
    for (const name of this.made.values()) this.db.exec(dialect.dropIndex(name, { ifExists: true }));
    this.made.clear();
    this.seen.clear();
  }
}

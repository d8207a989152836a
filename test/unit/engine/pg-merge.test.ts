import { describe, expect, it } from 'vitest';
import { postgresMerge } from '../../../src/engine/postgres/pg-dialect.js';

const merge = {
  target: '"s"."orders"',
  source: 'pg_temp."orders__new"',
  matchTable: 'orders__match',
  keys: ['"id"'],
  columns: ['"id"', '"status"'],
  update: ['status'],
  predicates: ['DBT_INTERNAL_DEST."day" >= \'2024-01-01\''],
};

describe("merge on PostgreSQL: MERGE from version 15, dbt-postgres's statement", () => {
  it('writes one MERGE with the key and every predicate in ON, the update columns set, and the unmatched rows inserted', () => {
    const sql = postgresMerge(merge, true);
    expect(sql).toEqual({
      kind: 'native',
      sql: 'merge into "s"."orders" as DBT_INTERNAL_DEST\nusing pg_temp."orders__new" as DBT_INTERNAL_SOURCE\n'
        + 'on DBT_INTERNAL_SOURCE."id" = DBT_INTERNAL_DEST."id"\n  and (DBT_INTERNAL_DEST."day" >= \'2024-01-01\')\n'
        + 'when matched then update set\n  "status" = DBT_INTERNAL_SOURCE."status"\n'
        + 'when not matched then insert ("id", "status")\nvalues (DBT_INTERNAL_SOURCE."id", DBT_INTERNAL_SOURCE."status")',
    });
  });

  it('an older server (no MERGE) gets the match, update and insert steps', () => {
    const sql = postgresMerge(merge, false);
    expect(sql.kind).toBe('steps');
    if (sql.kind !== 'steps') return;
    expect(sql.match).toContain('DBT_INTERNAL_DEST.ctid as dest_row');
    expect(sql.update).toContain('update "s"."orders" as DBT_INTERNAL_DEST set');
  });

  it('nothing to update: the steps, so a row matched twice is still refused (MERGE ... DO NOTHING would let it pass)', () => {
    const sql = postgresMerge({ ...merge, update: [] }, true);
    expect(sql.kind).toBe('steps');
    if (sql.kind === 'steps') expect(sql.update).toBeUndefined();
  });
});

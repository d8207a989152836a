import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse, type Warehouse } from '../../../src/engine/open-warehouse.js';
import { addQueryComment, setQueryComment, takesQueryComments, withQueryComments } from '../../../src/engine/query-comment-connection.js';

describe('addQueryComment (dbt-adapters _QueryComment.add)', () => {
  it('puts the trimmed comment before the statement, or after it and before its last ;', () => {
    expect(addQueryComment('select 1', { text: ' dbt\nrules!\n', append: false })).toBe('/* dbt\nrules! */\nselect 1');
    expect(addQueryComment('select 1  \n', { text: 'c', append: true })).toBe('select 1\n/* c */');
    expect(addQueryComment('select 1;\n', { text: 'c', append: true })).toBe('select 1\n/* c */;');
    // A statement ending in a line comment: the appended one starts on its own line, so it is not swallowed.
    expect(addQueryComment('select 1 -- note', { text: 'c', append: true })).toBe('select 1 -- note\n/* c */');
  });

  it('adds nothing for no comment or a blank one', () => {
    expect(addQueryComment('select 1', undefined)).toBe('select 1');
    expect(addQueryComment('select 1', { text: ' \n', append: false })).toBe('select 1');
  });
});

describe('withQueryComments', () => {
  let db: Warehouse;
  beforeEach(() => {
    db = withQueryComments(openWarehouse(':memory:'));
  });
  afterEach(() => db.close());

  /** What SQLite kept of a view's CREATE statement (a comment after it is kept; one before CREATE is not). */
  const viewSql = (name: string): string => String(db.value('select sql from sqlite_master where name = ?', name));

  it('comments every statement given to it from setQueryComment on, and stops when it is unset', () => {
    expect(takesQueryComments(db)).toBe(true);
    db.exec('create view plain as select 1 as a');
    expect(setQueryComment(db, { text: 'node a', append: true })).toBeUndefined();
    db.exec('create view by_exec as select 1 as a');
    db.run('create view by_run as select 1 as a');
    db.prepare('create view by_prepare as select 1 as a').run();
    const previous = setQueryComment(db, undefined);
    expect(previous).toEqual({ text: 'node a', append: true });
    db.exec('create view after as select 1 as a');
    expect(viewSql('plain')).toBe('CREATE VIEW plain as select 1 as a');
    expect(viewSql('by_exec')).toBe('CREATE VIEW by_exec as select 1 as a\n/* node a */');
    expect(viewSql('by_run')).toBe('CREATE VIEW by_run as select 1 as a\n/* node a */');
    expect(viewSql('by_prepare')).toBe('CREATE VIEW by_prepare as select 1 as a\n/* node a */');
    expect(viewSql('after')).toBe('CREATE VIEW after as select 1 as a');
  });

  it('leaves answers, transactions and introspection as they were', () => {
    setQueryComment(db, { text: 'c', append: false });
    db.transaction(() => db.exec('create table t as select 1 as a union all select 2'));
    expect(db.all('select a from t order by a')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(db.value('select count(*) from t')).toBe(2);
    expect(db.relationKind('t')).toBe('table');
    expect(db.inTransaction).toBe(false);
    // Wrapping twice is the same connection: one comment, not two.
    expect(withQueryComments(db)).toBe(db);
  });
});

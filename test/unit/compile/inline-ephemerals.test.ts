import { describe, expect, it } from 'vitest';
import { inlineEphemerals } from '../../../src/compile/inline-ephemerals.js';

const CTES = [{ name: '__dbt__cte__a', sql: 'select 1 as x;' }, { name: '__dbt__cte__b', sql: 'with y as (select 2) select * from y' }];

describe('inlineEphemerals', () => {
  it('adds a WITH in front of SQL that has none, dependencies first', () => {
    expect(inlineEphemerals('select * from __dbt__cte__b', CTES)).toBe(
      'with __dbt__cte__a as (\nselect 1 as x\n),\n__dbt__cte__b as (\nwith y as (select 2) select * from y\n)\nselect * from __dbt__cte__b',
    );
  });

  it('merges into a leading WITH (or WITH RECURSIVE), after comments', () => {
    expect(inlineEphemerals('-- note\nWITH t as (select 1) select * from t', CTES.slice(0, 1))).toBe(
      '-- note\nWITH __dbt__cte__a as (\nselect 1 as x\n),\nt as (select 1) select * from t',
    );
    expect(inlineEphemerals('/* c */ with recursive r(n) as (select 1) select * from r', CTES.slice(0, 1))).toBe(
      '/* c */ with recursive __dbt__cte__a as (\nselect 1 as x\n),\nr(n) as (select 1) select * from r',
    );
  });

  it('leaves SQL alone when nothing is inlined, and does not mistake a name starting with "with"', () => {
    expect(inlineEphemerals('select 1', [])).toBe('select 1');
    expect(inlineEphemerals('without_cte', CTES.slice(0, 1))).toBe('with __dbt__cte__a as (\nselect 1 as x\n)\nwithout_cte');
  });
});

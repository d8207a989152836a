import { describe, expect, it } from 'vitest';
import { parseModelSettings } from '../../../../src/config/model-settings.js';
import { indexStatements } from '../../../../src/materialize/model-indexes.js';
import { BUILTIN_STRATEGIES, getStrategy, isBuiltinStrategy, replacesRows, strategyNames, strategyRules } from '../../../../src/materialize/incremental/strategy-registry.js';
import { customStrategyNames } from '../../../../src/parse/validate-model-config.js';

/** Each strategy owns its rules: validation, indexes, whether it deletes, its statements. */
describe('strategy registry', () => {
  it('is the one list of names: validation, the custom-macro filter and the plan read it', () => {
    expect(BUILTIN_STRATEGIES).toEqual(strategyNames());
    expect(strategyNames().every(isBuiltinStrategy)).toBe(true);
    expect(isBuiltinStrategy('upsert')).toBe(false);
    expect(customStrategyNames(['get_incremental_merge_sql', 'get_incremental_upsert_sql', 'other'])).toEqual(['upsert']);
  });

  it('gives a project strategy for an unknown name only when its macro exists', () => {
    expect(getStrategy('upsert', true).name).toBe('upsert');
    expect(() => getStrategy('upsert')).toThrow("unknown incremental_strategy 'upsert'; valid: append, delete+insert, merge, insert_overwrite, microbatch");
    expect(strategyRules('upsert').validate({}, 'm')).toEqual([]);
  });

  it('says which strategies delete rows (a backfill can rewrite a range only with those)', () => {
    expect(Object.fromEntries(strategyNames().map((n) => [n, strategyRules(n).deletes]))).toEqual({
      append: false, 'delete+insert': true, merge: true, insert_overwrite: true, microbatch: true,
    });
    // Without a key, delete+insert and merge only insert (dbt's MERGE matches on FALSE).
    expect(Object.fromEntries(strategyNames().map((n) => [n, replacesRows(n, [])]))).toEqual({
      append: false, 'delete+insert': false, merge: false, insert_overwrite: true, microbatch: true,
    });
    expect(replacesRows('merge', ['id'])).toBe(true);
    expect(replacesRows('delete+insert', ['id'])).toBe(true);
  });

  it('names why a NULL key survives a rerun only for the strategies that use the key', () => {
    expect(strategyRules('delete+insert').nullKeyConsequence).toBe('delete+insert never deletes them');
    expect(strategyRules('merge').nullKeyConsequence).toBe('merge never matches them');
    expect(strategyRules('append').nullKeyConsequence).toBeUndefined();
    expect(strategyRules('microbatch').nullKeyConsequence).toBeUndefined();
  });

  it('each strategy names the indexes it needs on the unique_key (none unique: dbt\'s tables may hold a key twice)', () => {
    expect(strategyRules('merge').indexes(['id'])).toEqual([{ columns: ['id'], unique: false }]);
    expect(strategyRules('delete+insert').indexes(['a', 'b'])).toEqual([{ columns: ['a', 'b'], unique: false }]);
    expect(strategyRules('append').indexes([])).toEqual([]);
    expect(indexStatements('m', parseModelSettings({ materialized: 'incremental', unique_key: 'id', incremental_strategy: 'merge' })))
      .toEqual(['create index "m__idx__id" on "m" ("id")']);
    // A configured index on the key (unique or not) already serves.
    expect(indexStatements('m', parseModelSettings({ materialized: 'incremental', unique_key: 'id', indexes: [{ columns: ['id'], unique: true }] })))
      .toEqual(['create unique index "m__uidx__id" on "m" ("id")']);
    expect(indexStatements('m', parseModelSettings({ materialized: 'incremental', unique_key: 'id', incremental_strategy: 'merge', indexes: [['id']] })))
      .toEqual(['create index "m__idx__id" on "m" ("id")']);
    expect(indexStatements('m', parseModelSettings({ materialized: 'table', unique_key: 'id' }))).toEqual([]);
  });

  it('each strategy validates its own config', () => {
    // merge without a unique_key is valid, as in dbt: it inserts every new row.
    expect(strategyRules('merge').validate({}, 'm')).toEqual([]);
    expect(strategyRules('merge').validate({ unique_key: 'id', merge_update_columns: ['a'], merge_exclude_columns: ['b'] }, 'm')[0]!.at).toBe('merge_');
    expect(strategyRules('merge').validate({ unique_key: ['id'] }, 'm')).toEqual([]);
    expect(strategyRules('insert_overwrite').validate({}, 'm')[0]!.message).toBe("model 'm': incremental_strategy 'insert_overwrite' needs partition_by (the column whose partitions are replaced)");
    expect(strategyRules('insert_overwrite').validate({ partition_by: { field: 'd' } }, 'm')).toEqual([]);
    expect(strategyRules('microbatch').validate({ event_time: 't', begin: '2024-01-01', batch_size: 'day' }, 'm')).toEqual([]);
    expect(strategyRules('microbatch').validate({ event_time: 't', begin: '2024-01-01', batch_size: 'week' }, 'm')[0]!.at).toBe('batch_size');
    expect(strategyRules('microbatch').validate({ event_time: 't', begin: '2024-01-01', batch_size: 'day', lookback: -1 }, 'm')[0]!.at).toBe('lookback');
    expect(strategyRules('microbatch').validate({ event_time: 't', begin: '2024-01-01', batch_size: 'day', fill_gaps: true }, 'm')).toEqual([]);
    expect(strategyRules('microbatch').validate({ event_time: 't', begin: '2024-01-01', batch_size: 'day', fill_gaps: 'yes' }, 'm')[0]).toMatchObject({ at: 'fill_gaps', message: `Microbatch model 'm': fill_gaps must be true or false, got "yes".` });
    expect(strategyRules('delete+insert').validate({}, 'm')).toEqual([]);
    expect(strategyRules('append').validate({}, 'm')).toEqual([]);
  });
});

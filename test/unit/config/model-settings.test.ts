import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JinjaEnvironment } from '../../../src/compile/jinja-environment.js';
import { isMicrobatch, parseModelSettings, parseSeedSettings, parseSourceSettings } from '../../../src/config/model-settings.js';
import { loadWithParseCache } from '../../../src/parse/parse-cache.js';
import { writeProject } from '../../support/example-project.js';

describe('parseModelSettings: a model config parsed once into typed settings', () => {
  it('defaults: a view with no key, no partition, no hooks, no indexes, no tags; full_refresh unset', () => {
    expect(parseModelSettings({ materialized: 'view' })).toEqual({
      materialized: 'view',
      partitionColumn: undefined,
      uniqueKeyColumns: [],
      uniqueKey: undefined,
      uniqueKeyNulls: 'warn',
      fullRefresh: undefined,
      fullRefreshIgnored: 'warn',
      eventTime: undefined,
      loadedAt: undefined,
      indexes: [],
      hooks: { pre: [], post: [] },
      tags: [],
    });
    expect(parseModelSettings({}).materialized).toBe('view');
  });

  it('each materialization is the discriminant; only incremental models have a strategy', () => {
    for (const materialized of ['table', 'view', 'ephemeral'] as const) {
      const s = parseModelSettings({ materialized, unique_key: 'id' });
      expect(s.materialized).toBe(materialized);
      expect(s.strategy).toBeUndefined();
      expect(s.uniqueKeyColumns).toEqual(['id']);
    }
    const s = parseModelSettings({ materialized: 'incremental' });
    expect(s.materialized).toBe('incremental');
    if (s.materialized !== 'incremental') throw new Error('narrowed');
    expect(s).toMatchObject({ strategy: 'append', defaultStrategy: true, onSchemaChange: 'ignore', incrementalPredicates: [], mergeUpdateColumns: undefined, mergeExcludeColumns: undefined });
  });

  it('the effective strategy: delete+insert with a unique_key and append without (unset or default), else as configured', () => {
    const strategy = (config: Record<string, unknown>) => parseModelSettings({ materialized: 'incremental', ...config }).strategy;
    expect(strategy({})).toBe('append');
    expect(strategy({ incremental_strategy: 'default' })).toBe('append');
    expect(strategy({ unique_key: 'id' })).toBe('delete+insert');
    expect(strategy({ incremental_strategy: 'default', unique_key: ['a', 'b'] })).toBe('delete+insert');
    for (const name of ['append', 'delete+insert', 'merge', 'insert_overwrite', 'my_project_strategy']) {
      expect(strategy({ incremental_strategy: name, unique_key: 'id', partition_by: 'day' })).toBe(name);
    }
    expect(parseModelSettings({ materialized: 'incremental', incremental_strategy: 'append' })).toMatchObject({ defaultStrategy: false });
    expect(parseModelSettings({ materialized: 'incremental', incremental_strategy: 'delete+insert' })).toMatchObject({ strategy: 'delete+insert', defaultStrategy: false });
  });

  it('partition_by: a column name or {field: name}', () => {
    expect(parseModelSettings({ materialized: 'table', partition_by: 'order_date' }).partitionColumn).toBe('order_date');
    expect(parseModelSettings({ materialized: 'table', partition_by: { field: 'order_date', data_type: 'date' } }).partitionColumn).toBe('order_date');
    expect(parseModelSettings({ materialized: 'table', partition_by: { data_type: 'date' } }).partitionColumn).toBeUndefined();
  });

  it('unique_key: a string or a list, kept as configured for a project strategy macro', () => {
    expect(parseModelSettings({ unique_key: 'id' })).toMatchObject({ uniqueKeyColumns: ['id'], uniqueKey: 'id' });
    expect(parseModelSettings({ unique_key: ['day', 'shop'] })).toMatchObject({ uniqueKeyColumns: ['day', 'shop'], uniqueKey: ['day', 'shop'] });
    expect(parseModelSettings({ unique_key: null })).toMatchObject({ uniqueKeyColumns: [], uniqueKey: undefined });
    expect(parseModelSettings({ unique_key_nulls: 'error' }).uniqueKeyNulls).toBe('error');
  });

  it('full_refresh: the config value, undefined when unset', () => {
    expect(parseModelSettings({ full_refresh: false }).fullRefresh).toBe(false);
    expect(parseModelSettings({ full_refresh: true }).fullRefresh).toBe(true);
    expect(parseModelSettings({}).fullRefresh).toBeUndefined();
    // full_refresh_ignored: dbt's behaviour (warn) unless the opt-in says error.
    expect(parseModelSettings({ full_refresh: false }).fullRefreshIgnored).toBe('warn');
    expect(parseModelSettings({ full_refresh: false, full_refresh_ignored: 'error' }).fullRefreshIgnored).toBe('error');
  });

  it('merge: update or exclude columns, a bare string as one column; on_schema_change; predicates (a bare string is one)', () => {
    const s = parseModelSettings({
      materialized: 'incremental', incremental_strategy: 'merge', unique_key: 'id', merge_update_columns: 'status',
      on_schema_change: 'append_new_columns', incremental_predicates: "DBT_INTERNAL_DEST.day > '2024-01-01'",
    });
    expect(s).toMatchObject({ strategy: 'merge', mergeUpdateColumns: ['status'], onSchemaChange: 'append_new_columns', incrementalPredicates: ["DBT_INTERNAL_DEST.day > '2024-01-01'"] });
    expect(parseModelSettings({ materialized: 'incremental', predicates: ['a > 1', ' '] })).toMatchObject({ incrementalPredicates: ['a > 1'] });
    expect(parseModelSettings({ materialized: 'incremental', merge_exclude_columns: ['x'] })).toMatchObject({ mergeExcludeColumns: ['x'] });
  });

  it('microbatch: event_time, begin (parsed), batch_size, lookback (1 by default), fill_gaps (false by default, as dbt never fills)', () => {
    const s = parseModelSettings({ materialized: 'incremental', incremental_strategy: 'microbatch', event_time: 'ordered_at', begin: '2024-01-01', batch_size: 'day' });
    expect(isMicrobatch(s)).toBe(true);
    if (!isMicrobatch(s)) throw new Error('narrowed');
    expect(s.strategy).toBe('microbatch');
    expect(s.eventTime).toBe('ordered_at');
    expect(s.begin.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(s.batchSize).toBe('day');
    expect(s.lookback).toBe(1);
    expect(s.fillGaps).toBe(false);
    expect(parseModelSettings({ materialized: 'incremental', incremental_strategy: 'microbatch', event_time: 't', begin: '2024-01-01', batch_size: 'hour', lookback: 3 }).lookback).toBe(3);
    expect(parseModelSettings({ materialized: 'incremental', incremental_strategy: 'microbatch', event_time: 't', begin: '2024-01-01', batch_size: 'hour', fill_gaps: true })).toMatchObject({ fillGaps: true });
    expect(isMicrobatch(parseModelSettings({ materialized: 'incremental', unique_key: 'id' }))).toBe(false);
    expect(parseModelSettings({ materialized: 'incremental', unique_key: 'id' }).batchSize).toBeUndefined();
  });

  it('hooks, indexes, tags, event_time and loaded_at', () => {
    const s = parseModelSettings({
      materialized: 'table',
      pre_hook: 'select 1',
      post_hook: [{ sql: 'vacuum', transaction: false }, '  '],
      indexes: [['a'], { columns: ['b', 'c'], unique: true }, 'd'],
      tags: 'nightly',
      event_time: 'day',
      loaded_at: 'loaded_on',
    });
    expect(s.hooks).toEqual({ pre: [{ sql: 'select 1', transaction: true }], post: [{ sql: 'vacuum', transaction: false }] });
    expect(s.indexes).toEqual([{ columns: ['a'], unique: false }, { columns: ['b', 'c'], unique: true }, { columns: ['d'], unique: false }]);
    expect(s.tags).toEqual(['nightly']);
    expect(s).toMatchObject({ eventTime: 'day', loadedAt: 'loaded_on' });
  });

  it('seeds and sources: the fields their code reads', () => {
    expect(parseSeedSettings({ delimiter: ';', indexes: [['id']], loaded_at: 'l', tags: ['a'] })).toEqual({
      eventTime: undefined, loadedAt: 'l', indexes: [{ columns: ['id'], unique: false }], tags: ['a'], delimiter: ';', encoding: undefined, columnTypes: undefined, hooks: { pre: [], post: [] },
    });
    expect(parseSourceSettings({ event_time: 'e', loaded_at: 'l' })).toEqual({ eventTime: 'e', loadedAt: 'l', tags: [], loadedAtField: undefined, freshness: null });
  });
});

describe('settings on manifest nodes', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('every model, seed and source has them, on a fresh load and on one the parse cache serves', () => {
    dir = writeProject({
      'project.yml': 'name: shop\nmodels:\n  marts:\n    +materialized: table\n',
      'models/marts/daily.sql': "{{ config(materialized='incremental', unique_key=['day', 'shop'], partition_by={'field': 'day'}, full_refresh=false) }}\nselect 1 as day, 2 as shop from {{ ref('raw') }}",
      'models/marts/wide.sql': "select * from {{ ref('daily') }}",
      'models/events.sql': "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='day', begin='2024-01-01', batch_size='day', lookback=2) }}\nselect 1 as day",
      'seeds/raw.csv': 'id\n1\n',
      'seeds/schema.yml': 'version: 2\nseeds:\n  - name: raw\n    config:\n      loaded_at: id\n',
    });
    const settingsOf = () => {
      const { manifest } = loadWithParseCache(dir);
      return {
        daily: manifest.models.get('daily')!.settings,
        wide: manifest.models.get('wide')!.settings,
        events: manifest.models.get('events')!.settings,
        raw: manifest.seeds.get('raw')!.settings,
      };
    };
    const fresh = settingsOf();
    expect(fresh.daily).toMatchObject({ materialized: 'incremental', strategy: 'delete+insert', uniqueKeyColumns: ['day', 'shop'], partitionColumn: 'day', fullRefresh: false });
    expect(fresh.wide.materialized).toBe('table');
    expect(fresh.events).toMatchObject({ strategy: 'microbatch', eventTime: 'day', batchSize: 'day', lookback: 2 });
    expect(fresh.raw.loadedAt).toBe('id');
    const render = vi.spyOn(JinjaEnvironment.prototype, 'render');
    try {
      const cached = settingsOf();
      expect(render).not.toHaveBeenCalled();
      expect(cached).toEqual(fresh);
    } finally {
      render.mockRestore();
    }
  });
});

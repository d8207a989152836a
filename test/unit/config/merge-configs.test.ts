import { describe, expect, it } from 'vitest';
import { folderConfigLayers } from '../../../src/config/folder-config.js';
import { mergeConfigs } from '../../../src/config/merge-configs.js';

describe('config layers', () => {
  const tree = {
    '+materialized': 'view',
    '+tags': 'base',
    brightcart: {
      marts: { '+materialized': 'table', '+tags': ['finance'], 'pre-hook': 'select 1', finance: { materialized: 'incremental' } },
    },
  };

  it('collects folder configs shallowest first, with or without the project-name level', () => {
    expect(mergeConfigs(...folderConfigLayers(tree, 'brightcart', ['marts', 'finance']))).toEqual({
      materialized: 'incremental',
      tags: ['base', 'finance'],
      pre_hook: ['select 1'],
    });
    expect(mergeConfigs(...folderConfigLayers({ staging: { '+materialized': 'view' } }, 'p', ['staging']))).toEqual({ materialized: 'view' });
    expect(mergeConfigs(...folderConfigLayers(tree, 'brightcart', ['staging']))).toEqual({ materialized: 'view', tags: ['base'] });
  });

  it("merges with dbt's rules: tags and hooks add up, meta and column_types merge, the rest is replaced", () => {
    expect(mergeConfigs(
      { tags: ['a'], post_hook: 'x', meta: { owner: 'ann', tier: 1 }, unique_key: 'id', column_types: { a: 'TEXT' } },
      { tags: 'b', 'post-hook': ['y'], meta: { tier: 2 }, unique_key: ['id', 'day'], column_types: { b: 'INTEGER' } },
    )).toEqual({
      tags: ['a', 'b'],
      post_hook: ['x', 'y'],
      meta: { owner: 'ann', tier: 2 },
      unique_key: ['id', 'day'],
      column_types: { a: 'TEXT', b: 'INTEGER' },
    });
  });
});

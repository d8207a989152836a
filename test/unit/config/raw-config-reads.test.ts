import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

/** The model, seed and source config keys code reads; `config.<key>` on a raw dict outside the files below is a raw read. */
const KEYS = [
  'materialized', 'partition_by', 'unique_key', 'unique_key_nulls', 'incremental_strategy', 'on_schema_change', 'full_refresh',
  'event_time', 'loaded_at', 'begin', 'batch_size', 'lookback', 'indexes', 'pre_hook', 'post_hook', 'merge_update_columns',
  'merge_exclude_columns', 'incremental_predicates', 'predicates', 'tags', 'column_types', 'delimiter', 'encoding',
];
const RAW_READ = new RegExp(`\\bconfig\\??\\.(${KEYS.join('|')})\\b`);

/** Where reading the raw dict is the point, and why. */
const ALLOWED: Record<string, string> = {
  'config/model-config.ts': 'raw-config helpers of the parser and validation',
  'config/model-settings.ts': 'the parser',
  'config/snapshot-settings.ts': "the parser of a snapshot's config",
  'parse/validate-model-config.ts': 'validation checks the raw values',
  'materialize/incremental/merge.ts': "the strategy's validate() checks its raw config",
  'materialize/incremental/microbatch.ts': "the strategy's validate() checks its raw config",
  'graph/parse-selector.ts': 'a message naming the config.<key>: selector',
  'state/manifest-json.ts': 'manifest.json mirrors the config as written',
  'api/defer-state.ts': "the --defer state's manifest.json as another invocation wrote it (not this project's nodes)",
  'state/test-node-json.ts': "a data test's config (not a model's)",
  'parse/capture-project.ts': "a data test's tags for the graph (models use settings.tags)",
  'unit-tests/capture-unit-tests.ts': "a unit test's own config (tags, meta, enabled), not a model's",
  'parse/microbatch-inputs.ts': "an input's event_time as written: dbt refuses one that is not a string, which the typed setting cannot show",
  'compile/context-functions.ts': "should_full_refresh() reads the config as the template sets it (config() calls in the template being rendered)",
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('typed model config', () => {
  it('no file reads a config key off the raw dict but the parser, validation and the few that mirror it (they read node.settings)', () => {
    const found = tsFiles(SRC).flatMap((file) => {
      const path = relative(SRC, file).split('\\').join('/');
      if (ALLOWED[path]) return [];
      return readFileSync(file, 'utf8').split('\n').flatMap((line, i) => (RAW_READ.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(found).toEqual([]);
  });
});

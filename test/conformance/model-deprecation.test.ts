import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/api/session.js';
import { modelDeprecationWarnings } from '../../src/compile/model-deprecations.js';
import { conformanceProject } from '../support/conformance-project.js';

/**
 * dbt's model deprecation warnings (dbt-core tests/functional/deprecations/model_deprecations.py):
 * DeprecatedModel when a model whose deprecation_date has passed is built, DeprecatedReference when a
 * built node refs one, UpcomingReferenceDeprecation when the date is still to come (with dbt's hint of
 * the latest version when an older one is referenced). "Now" is the run's start (RunContext.startedAt):
 * the dates here are far in the past and far in the future, and the in-process case moves the start.
 */
const files: Record<string, string> = {
  'models/old_model.sql': 'select 1 as id\n',
  'models/soon_model.sql': 'select 2 as id\n',
  'models/dim_v1.sql': "select 1 as id, 'v1' as v\n",
  'models/dim_v2.sql': "select 2 as id, 'v2' as v\n",
  'models/reader.sql': "select id from {{ ref('old_model') }} union all select id from {{ ref('soon_model') }} union all select id from {{ ref('dim', v=1) }}\n",
  'models/plain.sql': 'select 3 as id\n',
  'models/schema.yml': `models:
  - name: old_model
    deprecation_date: 2020-01-01
  - name: soon_model
    deprecation_date: "2999-12-31 12:00:00"
  - name: dim
    latest_version: 2
    versions:
      - v: 1
        deprecation_date: 2021-06-30
      - v: 2
`,
};

describe('model deprecation warnings', () => {
  it('a run warns about each deprecated model it builds and each deprecated or soon deprecated model a built model refs, and builds them all', () => {
    const p = conformanceProject(files, 'test');
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('Warning: ')).sort();
    expect(warnings).toEqual([
      'Warning: Model dim.v1 has passed its deprecation date of 2021-06-30. This model should be disabled or removed.',
      'Warning: Model old_model has passed its deprecation date of 2020-01-01. This model should be disabled or removed.',
      "Warning: While compiling 'reader': Found a reference to test.dim.v1, which was deprecated on '2021-06-30'. A new version of 'dim' is available. Try it out: {{ ref('test', 'dim', v='2') }}.",
      "Warning: While compiling 'reader': Found a reference to test.old_model, which was deprecated on '2020-01-01'.",
      "Warning: While compiling 'reader': Found a reference to test.soon_model, which is slated for deprecation on '2999-12-31 12:00:00+00:00'.",
    ]);
    expect(p.rows('reader', 'id')).toEqual([{ id: 1 }, { id: 1 }, { id: 2 }]);
    const manifest = JSON.parse(readFileSync(join(p.dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, { deprecation_date: string | null }> };
    expect(manifest.nodes['model.test.old_model']!.deprecation_date).toBe('2020-01-01');
    expect(manifest.nodes['model.test.dim.v2']!.deprecation_date).toBeNull();
  });

  it('a run that builds none of them says nothing', () => {
    const p = conformanceProject(files, 'test');
    const run = p.dbt(['run', '-s', 'plain', 'soon_model']);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('deprecat');
    expect(p.rows('plain')).toEqual([{ id: 3 }]);
  });

  it('the run\'s start decides: before a date the reference is upcoming and the model not yet deprecated, after it both are', () => {
    const p = conformanceProject(files, 'test');
    const { manifest } = loadSession({ projectDir: p.dir });
    const ids = ['model.test.old_model', 'model.test.reader'];
    const before = modelDeprecationWarnings(manifest, ids, new Date('2019-12-31T23:59:59Z'));
    expect(before.map((w) => w.event).sort()).toEqual(['UpcomingReferenceDeprecation', 'UpcomingReferenceDeprecation', 'UpcomingReferenceDeprecation']);
    const after = modelDeprecationWarnings(manifest, ids, new Date('2020-01-01T00:00:01Z'));
    expect(after.map((w) => w.event).sort()).toEqual(['DeprecatedModel', 'DeprecatedReference', 'UpcomingReferenceDeprecation', 'UpcomingReferenceDeprecation']);
  });
});

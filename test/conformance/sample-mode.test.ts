import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter sample_mode/test_sample_mode.py (dbt 1.10's --sample): a model reading a ref
 * whose `event_time` is configured gets only the ref's rows inside the sample window. dbt's test
 * freezes the clock at 2025-01-03 02:03; mini-dbt's "now" is an input, the `as_of` var (as for
 * microbatch models), so the runs here pass it. A relative window ('1 day') ends at now and starts
 * one day before, to the second; a static one gives start and end. Refs without an event_time, and
 * `this`, are never sampled; a seed is loaded whole and sampled where it is referenced.
 */
const INPUT: Record<EngineName, string> = {
  postgres: `{{ config(materialized='table', event_time='event_time') }}
select 1 as id, TIMESTAMP '2025-01-01 01:25:00-0' as event_time
UNION ALL
select 2 as id, TIMESTAMP '2025-01-02 13:47:00-0' as event_time
UNION ALL
select 3 as id, TIMESTAMP '2025-01-03 01:32:00-0' as event_time
`,
  // SQLite has no TIMESTAMP literal: its times are ISO texts.
  sqlite: `{{ config(materialized='table', event_time='event_time') }}
select 1 as id, '2025-01-01 01:25:00' as event_time
UNION ALL
select 2 as id, '2025-01-02 13:47:00' as event_time
UNION ALL
select 3 as id, '2025-01-03 01:32:00' as event_time
`,
};

const SAMPLES = "{{ config(materialized='table') }}\nSELECT * FROM {{ ref('input_model') }}\n";
const NOW = ['--vars', "{as_of: '2025-01-03 02:03:00'}"];

describeEachEngine('--sample (dbt-tests-adapter sample_mode)', (engine) => {
  it('TestSampleMode: run reads every row; run --sample "1 day" the last day\'s only', () => {
    const p = conformanceProject({ 'models/input_model.sql': INPUT[engine], 'models/model_that_samples_input_sql.sql': SAMPLES }, 'sample', { engine });
    const full = p.dbt(['run', ...NOW]);
    expect(full.code, full.stdout + full.stderr).toBe(0);
    expect(p.count('model_that_samples_input_sql')).toBe(3);
    const sampled = p.dbt(['run', '--sample=1 day', ...NOW]);
    expect(sampled.code, sampled.stdout + sampled.stderr).toBe(0);
    expect(p.rows('model_that_samples_input_sql', 'id').map((r) => Number(r.id))).toEqual([2, 3]);
    // The input itself is built whole: sampling filters what reads it.
    expect(p.count('input_model')).toBe(3);
    // A static window: start included, end excluded.
    const fixed = p.dbt(['run', '--sample', "{'start': '2025-01-01', 'end': '2025-01-02 13:47:00'}"]);
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(p.rows('model_that_samples_input_sql', 'id').map((r) => Number(r.id))).toEqual([1]);
  });

  it('build --sample: a seed with an event_time is loaded whole and sampled where a model reads it; a ref without one is not', () => {
    const p = conformanceProject({
      'seeds/events.csv': 'id,loaded_at\n1,2025-01-01 01:00:00\n2,2025-01-02 12:00:00\n3,2025-01-03 01:00:00\n',
      'seeds/seeds.yml': 'version: 2\nseeds:\n  - name: events\n    config:\n      event_time: loaded_at\n',
      'models/plain.sql': "select 1 as id union all select 2\n",
      // No alias after a sampled ref: on PostgreSQL it renders as an aliased subquery, and a second alias is a syntax error (as in dbt).
      'models/reader.sql': "{{ config(materialized='table') }}\nselect id from {{ ref('events') }} where id in (select id from {{ ref('plain') }}) or id = 3\n",
    }, 'sample', { engine });
    const out = p.dbt(['build', '--sample', '2 days', ...NOW]);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(p.count('events')).toBe(3);
    expect(p.rows('reader', 'id').map((r) => Number(r.id))).toEqual([2, 3]);
  });

  it('a bad window stops the command before anything runs, in dbt\'s words (E201-E204)', () => {
    const p = conformanceProject({ 'models/input_model.sql': INPUT[engine], 'models/model_that_samples_input_sql.sql': SAMPLES }, 'sample', { engine });
    const cases: [string, string][] = [
      ['3', "Cannot load SAMPLE_WINDOW from '3'. Must be of form 'DAYS_INT GRAIN_SIZE'."],
      ['three days', "Unable to convert 'three' to an integer."],
      ['3 weeks', "Invalid grain size 'weeks'. Must be one of ['hour', 'day', 'month', 'year', 'hours', 'days', 'months', 'years']."],
      ["{'start': '2025-01-02', 'end': '2025-01-01'}", "--sample's start (2025-01-02) must be before its end (2025-01-01); the end is exclusive"],
    ];
    for (const [window, message] of cases) {
      const out = p.dbt(['run', '--sample', window]);
      expect(out.code, window).toBe(2);
      expect(out.stderr, window).toContain(message);
    }
    expect(p.relationType('input_model')).toBeUndefined();
  });
});

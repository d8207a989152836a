import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceProject } from '../support/conformance-project.js';
import { buildCrossDbProject } from '../support/cross-db-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 14): dbt's current-time and array macros, as
 * mini-dbt ships them in the `dbt` package. Modelled on dbt-tests-adapter's
 * test_current_timestamp (the value is within 5 minutes of UTC now),
 * test_timestamps (current_timestamp and the two *_backcompat macros), and
 * test_array_construct, test_array_append, test_array_concat (an `expected`
 * model and an `actual` one, checked equal); each model built unqualified and
 * as dbt.<macro>.
 *
 * On PostgreSQL the macros are dbt-postgres's (now(), arrays of the type).
 * Translated to SQLite: its clock is UTC and its timestamps are text, so each
 * macro gives 'YYYY-MM-DD HH:MM:SS' in UTC (dbt's test checks PostgreSQL's
 * column types: timestamp with and without time zone; SQLite has neither).
 * SQLite has no array type: an array is a JSON array in a text value, and
 * array_construct's data_type is not kept, so dbt's check that the columns'
 * types match is left out (both are text).
 */
const MACROS = ['current_timestamp', 'current_timestamp_backcompat', 'current_timestamp_in_utc_backcompat', 'snapshot_get_time', 'array_construct', 'array_append', 'array_concat'];

const CURRENT_TIMESTAMPS = `
select {{ current_timestamp() }} as current_timestamp,
       {{ current_timestamp_in_utc_backcompat() }} as current_timestamp_in_utc_backcompat,
       {{ current_timestamp_backcompat() }} as current_timestamp_backcompat,
       {{ snapshot_get_time() }} as snapshot_get_time
`;

const ARRAYS = {
  construct: {
    expected: 'select 1 as id, {{ array_construct([1,2,3]) }} as array_col union all\nselect 2 as id, {{ array_construct([]) }} as array_col\n',
    actual: 'select 1 as id, {{ array_construct([1,2,3]) }} as array_col union all\nselect 2 as id, {{ array_construct([]) }} as array_col\n',
  },
  append: {
    expected: 'select 1 as id, {{ array_construct([1,2,3,4]) }} as array_col union all\nselect 2 as id, {{ array_construct([4]) }} as array_col\n',
    actual: 'select 1 as id, {{ array_append(array_construct([1,2,3]), 4) }} as array_col union all\nselect 2 as id, {{ array_append(array_construct([]), 4) }} as array_col\n',
  },
  concat: {
    expected: [
      'select 1 as id, {{ array_construct([1,2,3,4,5,6]) }} as array_col union all',
      'select 2 as id, {{ array_construct([2]) }} as array_col union all',
      'select 3 as id, {{ array_construct([3]) }} as array_col',
    ].join('\n'),
    actual: [
      'select 1 as id, {{ array_concat(array_construct([1,2,3]), array_construct([4,5,6])) }} as array_col union all',
      'select 2 as id, {{ array_concat(array_construct([]), array_construct([2])) }} as array_col union all',
      'select 3 as id, {{ array_concat(array_construct([3]), array_construct([])) }} as array_col',
    ].join('\n'),
  },
};

describeEachEngine("dbt's current-time macros (dbt-tests-adapter utils/test_current_timestamp, test_timestamps)", (engine) => {
  let project: ConformanceProject;
  let builtAt: number;
  beforeAll(() => {
    builtAt = Date.now();
    const models: Record<string, string> = { current_ts: 'select {{ current_timestamp() }} as current_ts_column\n', get_current_timestamp: CURRENT_TIMESTAMPS };
    for (const [name, pair] of Object.entries(ARRAYS)) {
      models[`expected_array_${name}`] = pair.expected;
      models[`actual_array_${name}`] = pair.actual;
    }
    project = buildCrossDbProject({ macros: MACROS, models }, engine);
  });

  /**
   * A UTC timestamp as epoch milliseconds: SQLite's 'YYYY-MM-DD HH:MM:SS'; PostgreSQL's text of a
   * timestamp (with microseconds) or of a timestamp with time zone (with the session's +00).
   */
  const utc = (value: unknown): number => {
    expect(value).toMatch(engine === 'sqlite' ? /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/ : /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?(\+00)?$/);
    return Date.parse(`${String(value).replace(' ', 'T').replace(/\+00$/, '')}Z`);
  };

  it('current_timestamp: UTC now, to the second (test_current_timestamp_matches_utc)', () => {
    for (const relation of ['current_ts', 'current_ts_qualified']) {
      const [row] = project.rows(relation);
      expect(Math.abs(utc(row!.current_ts_column) - builtAt)).toBeLessThan(5 * 60_000);
    }
  });

  it('current_timestamp, both *_backcompat and snapshot_get_time: the same UTC clock (test_current_timestamps)', () => {
    for (const relation of ['get_current_timestamp', 'get_current_timestamp_qualified']) {
      const [row] = project.rows(relation);
      for (const value of Object.values(row!)) expect(Math.abs(utc(value) - builtAt)).toBeLessThan(5 * 60_000);
    }
  });

  describe("dbt's array macros, as JSON arrays (dbt-tests-adapter utils/test_array_*)", () => {
    it.each(Object.keys(ARRAYS))('array_%s: actual equals expected', (name) => {
      for (const suffix of ['', '_qualified']) {
        expect(project.difference(`actual_array_${name}${suffix}`, `expected_array_${name}`), `actual_array_${name}${suffix}`).toBe(0);
      }
    });

    it.runIf(engine === 'sqlite')('the arrays are JSON text: [1,2,3] and [] built, 4 appended, [1..6] concatenated', () => {
      expect(project.rows('actual_array_construct', 'id').map((r) => r.array_col)).toEqual(['[1,2,3]', '[]']);
      expect(project.rows('actual_array_append', 'id').map((r) => r.array_col)).toEqual(['[1,2,3,4]', '[4]']);
      expect(project.rows('actual_array_concat', 'id').map((r) => r.array_col)).toEqual(['[1,2,3,4,5,6]', '[2]', '[3]']);
    });

    it.runIf(engine === 'postgres')("the arrays are PostgreSQL's integer arrays: [1,2,3] and [] built, 4 appended, [1..6] concatenated", () => {
      expect(project.rows('actual_array_construct', 'id').map((r) => r.array_col)).toEqual([[1, 2, 3], []]);
      expect(project.rows('actual_array_append', 'id').map((r) => r.array_col)).toEqual([[1, 2, 3, 4], [4]]);
      expect(project.rows('actual_array_concat', 'id').map((r) => r.array_col)).toEqual([[1, 2, 3, 4, 5, 6], [2], [3]]);
      expect(project.columns('actual_array_construct')).toEqual(['id', 'array_col']);
    });
  });
});

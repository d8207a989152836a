import { beforeAll, describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { buildCrossDbProject, expectActualEqualsExpected } from '../support/cross-db-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 14): dbt's date macros, as mini-dbt ships them
 * in the `dbt` package. Modelled on dbt-tests-adapter's utils/ tests
 * (test_date_trunc, test_dateadd, test_datediff, test_last_day, test_date,
 * test_date_spine, test_get_intervals_between, test_generate_series,
 * test_get_powers_of_two): their seed rows and expected values, each model
 * built unqualified and as dbt.<macro>.
 *
 * Translated to SQLite, which has no date types (dates are ISO text):
 * - `cast(x as date)` is `date(x)`: SQLite's cast to `date` (NUMERIC
 *   affinity) turns '2018-01-05' into 2018.
 * - dateadd's `cast(... as timestamp)` is `cast(... as type_timestamp())`,
 *   which is TEXT on SQLite, for the same reason.
 * - get_intervals_between is given ISO dates, where dbt's fixture writes
 *   '09/01/2023' (a format SQLite's date functions do not read).
 * Beyond dbt's rows (marked "ours"): a date stays a date through dateadd and
 * date_trunc, the month end of Jan 31 + 1 month, and the week and quarter
 * parts of date_trunc; a datepart SQLite cannot do fails only its model.
 */
const MACROS = ['date_trunc', 'dateadd', 'datediff', 'last_day', 'date', 'date_spine', 'get_intervals_between', 'generate_series', 'get_powers_of_two', 'type_timestamp'];

const DATE_TRUNC = `
with data as (
    select * from {{ ref('data_date_trunc') }}
)
select date({{ date_trunc('day', 'updated_at') }}) as actual, day as expected from data
union all
select date({{ date_trunc('month', 'updated_at') }}) as actual, month as expected from data
`;

// Ours: every datepart on a timestamp and on a date (a date in, a date out for whole-day parts).
const DATE_TRUNC_PARTS = `
select {{ date_trunc('year', "'2019-12-31 05:06:07'") }} as actual, '2019-01-01 00:00:00' as expected
union all select {{ date_trunc('quarter', "'2019-11-30 05:06:07'") }}, '2019-10-01 00:00:00'
union all select {{ date_trunc('quarter', "'2019-03-31'") }}, '2019-01-01'
union all select {{ date_trunc('month', "'2019-12-31'") }}, '2019-12-01'
union all select {{ date_trunc('week', "'2019-12-31 05:06:07'") }}, '2019-12-30 00:00:00'
union all select {{ date_trunc('week', "'2019-12-29'") }}, '2019-12-23'
union all select {{ date_trunc('week', "'2019-12-30'") }}, '2019-12-30'
union all select {{ date_trunc('day', "'2019-12-31T05:06:07'") }}, '2019-12-31 00:00:00'
union all select {{ date_trunc('hour', "'2019-12-31 05:06:07'") }}, '2019-12-31 05:00:00'
union all select {{ date_trunc('minute', "'2019-12-31 05:06:07'") }}, '2019-12-31 05:06:00'
union all select {{ date_trunc('second', "'2019-12-31 05:06:07.891'") }}, '2019-12-31 05:06:07'
union all select {{ date_trunc('millisecond', "'2019-12-31 05:06:07.891234'") }}, '2019-12-31 05:06:07.891'
`;

const DATEADD = `
with data as (
    select * from {{ ref('data_dateadd') }}
)
select
    case
        when datepart = 'hour' then cast({{ dateadd('hour', 'interval_length', 'from_time') }} as {{ type_timestamp() }})
        when datepart = 'day' then cast({{ dateadd('day', 'interval_length', 'from_time') }} as {{ type_timestamp() }})
        when datepart = 'month' then cast({{ dateadd('month', 'interval_length', 'from_time') }} as {{ type_timestamp() }})
        when datepart = 'year' then cast({{ dateadd('year', 'interval_length', 'from_time') }} as {{ type_timestamp() }})
        else null
    end as actual,
    result as expected
from data
`;

// Ours: dates stay dates; months end at the month's last day (as in PostgreSQL); the other parts.
const DATEADD_PARTS = `
select {{ dateadd('day', 1, "'2018-01-31'") }} as actual, '2018-02-01' as expected
union all select {{ dateadd('month', 1, "'2018-01-31'") }}, '2018-02-28'
union all select {{ dateadd('month', -1, "'2018-03-31 10:00:00'") }}, '2018-02-28 10:00:00'
union all select {{ dateadd('year', 1, "'2020-02-29'") }}, '2021-02-28'
union all select {{ dateadd('quarter', 1, "'2018-11-30'") }}, '2019-02-28'
union all select {{ dateadd('week', -2, "'2018-01-10'") }}, '2017-12-27'
union all select {{ dateadd('minute', 90, "'2018-01-01 23:00:00'") }}, '2018-01-02 00:30:00'
union all select {{ dateadd('second', -1, "'2018-01-01'") }}, '2017-12-31 23:59:59'
union all select {{ dateadd('millisecond', 1500, "'2018-01-01 00:00:00'") }}, '2018-01-01 00:00:01.500'
union all select {{ dateadd('day', 'null', "'2018-01-01'") }}, null
`;

const DATEDIFF = `
with data as (
    select * from {{ ref('data_datediff') }}
)
select
    case
        when datepart = 'second' then {{ datediff('first_date', 'second_date', 'second') }}
        when datepart = 'minute' then {{ datediff('first_date', 'second_date', 'minute') }}
        when datepart = 'hour' then {{ datediff('first_date', 'second_date', 'hour') }}
        when datepart = 'day' then {{ datediff('first_date', 'second_date', 'day') }}
        when datepart = 'week' then {{ datediff('first_date', 'second_date', 'week') }}
        when datepart = 'month' then {{ datediff('first_date', 'second_date', 'month') }}
        when datepart = 'year' then {{ datediff('first_date', 'second_date', 'year') }}
        else null
    end as actual,
    result as expected
from data

union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "microsecond") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "millisecond") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "second") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "minute") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "hour") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "day") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-03 00:00:00.000000'", "week") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "month") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "quarter") }} as actual, 1 as expected
union all select {{ datediff("'1999-12-31 23:59:59.999999'", "'2000-01-01 00:00:00.000000'", "year") }} as actual, 1 as expected
`;

const LAST_DAY = `
with data as (
    select * from {{ ref('data_last_day') }}
)
select
    case
        when date_part = 'month' then {{ last_day('date_day', 'month') }}
        when date_part = 'quarter' then {{ last_day('date_day', 'quarter') }}
        when date_part = 'year' then {{ last_day('date_day', 'year') }}
        else null
    end as actual,
    result as expected
from data
`;

const DATE = `
with generated_dates as (
    {{ date_spine("day", date(2023, 9, 7), date(2023, 9, 10)) }}
),
expected_dates as (
    select '2023-09-07' as expected
    union all select '2023-09-08' as expected
    union all select '2023-09-09' as expected
),
joined as (
    select generated_dates.date_day, expected_dates.expected
    from generated_dates
    full outer join expected_dates on generated_dates.date_day = expected_dates.expected
)
select * from joined
`;

const DATE_SPINE = `
with generated_dates as (
    {{ date_spine("day", "'2023-09-01'", "'2023-09-10'") }}
), expected_dates as (
    select '2023-09-01' as expected
    union all select '2023-09-02' as expected
    union all select '2023-09-03' as expected
    union all select '2023-09-04' as expected
    union all select '2023-09-05' as expected
    union all select '2023-09-06' as expected
    union all select '2023-09-07' as expected
    union all select '2023-09-08' as expected
    union all select '2023-09-09' as expected
), joined as (
    select generated_dates.date_day, expected_dates.expected
    from generated_dates
    left join expected_dates on generated_dates.date_day = expected_dates.expected
)
select * from joined
`;

const GET_INTERVALS_BETWEEN = `
select {{ get_intervals_between("'2023-09-01'", "'2023-09-12'", "day") }} as intervals, 11 as expected
`;

const GENERATE_SERIES = `
with generated_numbers as (
    {{ generate_series(10) }}
), expected_numbers as (
    select 1 as expected union all select 2 union all select 3 union all select 4 union all select 5
    union all select 6 union all select 7 union all select 8 union all select 9 union all select 10
), joined as (
    select generated_numbers.generated_number, expected_numbers.expected
    from generated_numbers
    left join expected_numbers on generated_numbers.generated_number = expected_numbers.expected
)
select * from joined
`;

const GET_POWERS_OF_TWO = `
select {{ get_powers_of_two(1) }} as actual, 1 as expected
union all select {{ get_powers_of_two(4) }} as actual, 2 as expected
union all select {{ get_powers_of_two(27) }} as actual, 5 as expected
union all select {{ get_powers_of_two(256) }} as actual, 8 as expected
union all select {{ get_powers_of_two(3125) }} as actual, 12 as expected
union all select {{ get_powers_of_two(46656) }} as actual, 16 as expected
union all select {{ get_powers_of_two(823543) }} as actual, 20 as expected
`;

/**
 * On PostgreSQL, dbt's own fixtures (they are written for it): the seeds' columns typed as dbt-postgres's
 * seeds type them (timestamps and dates), the results cast as dbt's models cast them, and the spine's
 * bounds and literals typed. The SQLite-only cases (a date kept as ISO text, its datepart words) stay
 * on SQLite.
 */
const PG_SEED_TYPES = `version: 2
seeds:
  - name: data_date_trunc
    config: {column_types: {updated_at: timestamp, day: date, month: date}}
  - name: data_dateadd
    config: {column_types: {from_time: timestamp, interval_length: integer, result: timestamp}}
  - name: data_datediff
    config: {column_types: {first_date: timestamp, second_date: timestamp, result: integer}}
  - name: data_last_day
    config: {column_types: {date_day: date, result: date}}
`;

const tsLiteral = (text: string) => `"cast('${text}' as timestamp)"`;

const PG_MODELS: Record<string, string> = {
  test_date_trunc: `
with data as (
    select * from {{ ref('data_date_trunc') }}
)
select cast({{ date_trunc('day', 'updated_at') }} as date) as actual, day as expected from data
union all
select cast({{ date_trunc('month', 'updated_at') }} as date) as actual, month as expected from data
`,
  test_dateadd: DATEADD.replace(/\{\{ type_timestamp\(\) \}\}/g, 'timestamp'),
  test_datediff: DATEDIFF.replace(/"'(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+)'"/g, (_, text: string) => tsLiteral(text)),
  test_last_day: LAST_DAY.replace(/\{\{ last_day\(('date_day', '\w+')\) \}\}/g, 'cast({{ last_day($1) }} as date)'),
  test_date: DATE.replace('select generated_dates.date_day,', 'select cast(generated_dates.date_day as date) as date_day,').replace(/select '(2023-09-\d\d)' as expected/g, "select cast('$1' as date) as expected"),
  test_date_spine: DATE_SPINE.replace(`"'2023-09-01'", "'2023-09-10'"`, `"cast('2023-09-01' as date)", "cast('2023-09-10' as date)"`)
    .replace('select generated_dates.date_day,', 'select cast(generated_dates.date_day as date) as date_day,')
    .replace(/select '(2023-09-\d\d)' as expected/g, "select cast('$1' as date) as expected"),
  test_get_intervals_between: GET_INTERVALS_BETWEEN.replace(`"'2023-09-01'", "'2023-09-12'"`, `"cast('2023-09-01' as date)", "cast('2023-09-12' as date)"`),
  test_generate_series: GENERATE_SERIES,
  test_get_powers_of_two: GET_POWERS_OF_TWO,
};

describeEachEngine("dbt's date macros (dbt-tests-adapter utils/)", (engine) => {
  let project: ConformanceProject;
  beforeAll(() => {
    project = buildCrossDbProject({
      macros: MACROS,
      seeds: {
        data_date_trunc: 'updated_at,day,month\n2018-01-05 12:00:00,2018-01-05,2018-01-01\n,,\n',
        data_dateadd: [
          'from_time,interval_length,datepart,result',
          '2018-01-01 01:00:00,1,day,2018-01-02 01:00:00',
          '2018-01-01 01:00:00,1,month,2018-02-01 01:00:00',
          '2018-01-01 01:00:00,1,year,2019-01-01 01:00:00',
          '2018-01-01 01:00:00,1,hour,2018-01-01 02:00:00',
          ',1,day,',
          '',
        ].join('\n'),
        data_datediff: [
          'first_date,second_date,datepart,result',
          '2018-01-01 01:00:00,2018-01-02 01:00:00,day,1',
          '2018-01-01 01:00:00,2018-02-01 01:00:00,month,1',
          '2018-01-01 01:00:00,2019-01-01 01:00:00,year,1',
          '2018-01-01 01:00:00,2018-01-01 02:00:00,hour,1',
          '2018-01-01 01:00:00,2018-01-01 02:01:00,minute,61',
          '2018-01-01 01:00:00,2018-01-01 02:00:01,second,3601',
          '2019-12-31 00:00:00,2019-12-27 00:00:00,week,-1',
          '2019-12-31 00:00:00,2019-12-30 00:00:00,week,0',
          '2019-12-31 00:00:00,2020-01-02 00:00:00,week,0',
          '2019-12-31 00:00:00,2020-01-06 02:00:00,week,1',
          ',2018-01-01 02:00:00,hour,',
          '2018-01-01 02:00:00,,hour,',
          '',
        ].join('\n'),
        data_last_day: 'date_day,date_part,result\n2018-01-02,month,2018-01-31\n2018-01-02,quarter,2018-03-31\n2018-01-02,year,2018-12-31\n,month,\n',
      },
      models: engine === 'sqlite' ? {
        test_date_trunc: DATE_TRUNC,
        test_date_trunc_parts: DATE_TRUNC_PARTS,
        test_dateadd: DATEADD,
        test_dateadd_parts: DATEADD_PARTS,
        test_datediff: DATEDIFF,
        test_last_day: LAST_DAY,
        test_date: DATE,
        test_date_spine: DATE_SPINE,
        test_get_intervals_between: GET_INTERVALS_BETWEEN,
        test_generate_series: GENERATE_SERIES,
        test_get_powers_of_two: GET_POWERS_OF_TWO,
      } : PG_MODELS,
      ...(engine === 'postgres' ? { files: { 'seeds/properties.yml': PG_SEED_TYPES } } : {}),
    }, engine);
  });

  it('date_trunc: day and month of a timestamp, NULL for NULL (test_date_trunc)', () => {
    expect(expectActualEqualsExpected(project, 'test_date_trunc')).toHaveLength(4);
  });

  it.runIf(engine === 'sqlite')('date_trunc: every datepart, a date staying a date, weeks from Monday (ours)', () => {
    expect(expectActualEqualsExpected(project, 'test_date_trunc_parts')).toHaveLength(12);
  });

  it('dateadd: hour, day, month and year, NULL for NULL (test_dateadd)', () => {
    expect(expectActualEqualsExpected(project, 'test_dateadd')).toHaveLength(5);
  });

  it.runIf(engine === 'sqlite')("dateadd: a date stays a date, a month's last day, weeks, quarters, minutes, milliseconds (ours)", () => {
    expect(expectActualEqualsExpected(project, 'test_dateadd_parts')).toHaveLength(10);
  });

  it('datediff: boundaries crossed, every datepart down to the microsecond, NULLs (test_datediff)', () => {
    expect(expectActualEqualsExpected(project, 'test_datediff')).toHaveLength(22);
  });

  it('last_day: month, quarter and year, as a date (test_last_day)', () => {
    expect(expectActualEqualsExpected(project, 'test_last_day')).toHaveLength(4);
  });

  it('date: a date literal the spine starts from, three days (test_date)', () => {
    expect(expectActualEqualsExpected(project, 'test_date', 'date_day', 'expected')).toHaveLength(3);
  });

  it('date_spine: one row a day from the start, the end left out (test_date_spine)', () => {
    const rows = expectActualEqualsExpected(project, 'test_date_spine', 'date_day', 'expected');
    expect(rows.map((r) => r.date_day)).toEqual(Array.from({ length: 9 }, (_, i) => `2023-09-0${i + 1}`));
  });

  it('get_intervals_between: asks the warehouse, 11 days (test_get_intervals_between)', () => {
    expect(expectActualEqualsExpected(project, 'test_get_intervals_between', 'intervals', 'expected')).toEqual([{ intervals: 11, expected: 11 }]);
  });

  it('generate_series: the integers 1 to 10 (test_generate_series)', () => {
    const rows = expectActualEqualsExpected(project, 'test_generate_series', 'generated_number', 'expected');
    expect(rows.map((r) => r.generated_number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('get_powers_of_two: the bits a series needs (test_get_powers_of_two)', () => {
    expect(expectActualEqualsExpected(project, 'test_get_powers_of_two')).toHaveLength(7);
  });

  describe.runIf(engine === 'sqlite')('a datepart SQLite cannot do', () => {
    it('fails the model that asks for it when it runs, with the parts it can do; the rest of the project builds (exit 1)', () => {
      const p = conformanceProject({
        'models/bad_datepart.sql': `select {{ dbt.dateadd('fortnight', 1, "'2020-01-01'") }} as d\n`,
        'models/good_datepart.sql': `select {{ dbt.dateadd('days', 1, "'2020-01-01'") }} as d\n`,
      });
      const out = p.dbt(['build']);
      expect(out.code).toBe(1);
      expect(out.stdout).toContain(
        "Compilation Error in model bad_datepart (models/bad_datepart.sql): dateadd: datepart 'fortnight' is not one SQLite can do (one of year, quarter, month, week, day, hour, minute, second, millisecond, microsecond)",
      );
      expect(out.statuses).toMatchObject({ 'model.conformance.bad_datepart': 'error', 'model.conformance.good_datepart': 'success' });
      expect(p.rows('good_datepart')).toEqual([{ d: '2020-01-02' }]);
    });
  });
});

import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADAPTER_SHIM_MACROS, SHIMMED_MACROS } from '../../src/compile/adapter-shims/adapter-shim-macros.js';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';

/**
 * The real dbt_utils and dbt_date on SQLite: their code is copied from the
 * local mirrors (never committed) into a scratch project of one model per
 * macro (docs/package-compatibility.md is the table these cases back). On a
 * machine without the mirrors the cases are reported skipped, never passed.
 */
const MIRRORS = process.env.MINI_DBT_MIRRORS ?? '/work/.mirror';
const UTILS = join(MIRRORS, 'dbt-labs+dbt-utils/repo');
const DATE = join(MIRRORS, 'calogica+dbt-date/repo');
const present = existsSync(UTILS) && existsSync(DATE);
const reason = !existsSync(UTILS) ? 'mirror of dbt-labs/dbt-utils not present' : 'mirror of calogica/dbt-date not present';

function install(mirror: string, into: string): void {
  mkdirSync(into, { recursive: true });
  execSync(`git --git-dir=${JSON.stringify(mirror)} archive HEAD | tar -x -C ${JSON.stringify(into)}`);
  rmSync(join(into, 'integration_tests'), { recursive: true, force: true });
}

const SEEDS: Record<string, string> = {
  'seeds/events.csv': [
    'id,user_id,event,event_at,amount,url,lat,lon',
    '1,1,signup,2024-01-01 10:00:00,10.5,https://www.example.com/path/to/page?utm_source=google&x=1,51.5,-0.12',
    '2,1,purchase,2024-01-02 11:30:00,20,http://shop.example.org/cart?utm_source=bing,48.85,2.35',
    '3,2,signup,2024-01-02 12:00:00,,https://example.net/?utm_source=,40.71,-74.0',
    '4,3,purchase,2024-01-03 09:15:00,5.25,https://a.b.example.com:8080/x/y,34.05,-118.24',
    '5,3,purchase,2024-01-04 09:15:00,5.25,www.example.com/z?utm_source=fb,34.05,-118.24',
  ].join('\n') + '\n',
  'seeds/people_a.csv': 'id,name,city\n1,Ann,Paris\n2,Bob,Oslo\n',
  'seeds/people_b.csv': 'id,name,country\n3,Cid,FR\n',
  'seeds/ranges.csv': 'id,grp,lower_bound,upper_bound\n1,a,0,10\n2,a,10,20\n3,b,0,5\n4,b,5,9\n',
  'seeds/epochs.csv': 'id,epoch_s\n1,1704067200\n2,1718000000\n',
};

const UTILS_MODELS: Record<string, string> = {
  u_date_spine: `{{ dbt_utils.date_spine(datepart="day", start_date="'2024-01-01'", end_date="'2024-01-05'") }}`,
  u_date_spine_month: `{{ dbt_utils.date_spine(datepart="month", start_date="'2024-01-01'", end_date="'2024-04-01'") }}`,
  u_generate_series: '{{ dbt_utils.generate_series(5) }}',
  u_deduplicate: "{{ dbt_utils.deduplicate(relation=ref('events'), partition_by='user_id', order_by='event_at desc') }}",
  u_generate_surrogate_key: "select id, {{ dbt_utils.generate_surrogate_key(['user_id', 'event']) }} as sk from {{ ref('events') }}",
  u_safe_math: "select id, {{ dbt_utils.safe_add(['amount', 'id']) }} as a, {{ dbt_utils.safe_subtract(['amount', 'id']) }} as s, {{ dbt_utils.safe_divide('amount', 'user_id - 1') }} as d from {{ ref('events') }}",
  u_group_by: "select user_id, event, count(*) as n from {{ ref('events') }} {{ dbt_utils.group_by(2) }}",
  u_star: "select {{ dbt_utils.star(from=ref('events'), except=['url', 'lat', 'lon'], relation_alias='e') }}, {{ dbt_utils.star(from=ref('people_a'), relation_alias='p', prefix='p_', suffix='_x') }} from {{ ref('events') }} e join {{ ref('people_a') }} p on p.id = user_id",
  u_union_relations: "{{ dbt_utils.union_relations(relations=[ref('people_a'), ref('people_b')]) }}",
  u_unpivot: "{{ dbt_utils.unpivot(relation=ref('people_a'), cast_to=dbt.type_string(), exclude=['id'], field_name='field', value_name='value') }}",
  u_pivot: "select user_id, {{ dbt_utils.pivot('event', dbt_utils.get_column_values(ref('events'), 'event')) }} from {{ ref('events') }} group by user_id",
  u_width_bucket: "select id, {{ dbt_utils.width_bucket('amount', 0, 25, 5) }} as bucket from {{ ref('events') }}",
  u_haversine_distance: "select {{ dbt_utils.haversine_distance(51.5, -0.12, 48.85, 2.35, unit='km') }} as km",
  u_nullcheck_table: "{{ dbt_utils.nullcheck_table(ref('events')) }}",
  u_get_column_values: "select '{{ dbt_utils.get_column_values(ref('events'), 'event', order_by='event') | join(',') }}' as vals",
  u_get_column_values_default: "select '{{ dbt_utils.get_column_values(api.Relation.create(identifier='no_such_table'), 'x', default=['d1', 'd2']) | join(',') }}' as vals",
  u_get_filtered_columns_in_relation: "select '{{ dbt_utils.get_filtered_columns_in_relation(ref('events'), except=['url']) | join(',') }}' as cols",
  u_get_relations_by_pattern: "{{ dbt_utils.union_relations(dbt_utils.get_relations_by_pattern('main', 'people_%')) }}",
  u_get_relations_by_prefix: "{{ dbt_utils.union_relations(dbt_utils.get_relations_by_prefix('main', 'people_')) }}",
  u_get_query_results_as_dict:
    `{% set d = dbt_utils.get_query_results_as_dict("select event, count(*) as n from " ~ ref('events') ~ " group by 1 order by 1") %}` +
    `select '{{ d['event'] | join(",") }}' as events, '{{ d['n'] | join(",") }}' as ns`,
  u_get_single_value: "select {{ dbt_utils.get_single_value('select max(amount) from ' ~ ref('events')) }} as m",
  u_web: "select id, {{ dbt_utils.get_url_host('url') }} as host, {{ dbt_utils.get_url_path('url') }} as path, {{ dbt_utils.get_url_parameter('url', 'utm_source') }} as src from {{ ref('events') }}",
  u_jinja_helpers: `select '{{ dbt_utils.slugify("Hello World! 2x") }}' as slug, {{ 1 if dbt_utils.pretty_time() | length == 8 else 0 }} as pretty_time_ok`,
};

const DATE_MODELS: Record<string, string> = {
  d_base_dates: "{{ dbt_date.get_base_dates(start_date='2024-01-01', end_date='2024-01-04') }}",
  d_parts: [
    "with d as (select '2024-01-07' as date_day union all select '2024-12-30')",
    "select date_day, {{ dbt_date.day_name('date_day', short=true) }} as day_short, {{ dbt_date.month_name('date_day', short=false) }} as month_long,",
    "  {{ dbt_date.day_of_week('date_day', isoweek=true) }} as dow_iso, {{ dbt_date.day_of_week('date_day', isoweek=false) }} as dow,",
    "  {{ dbt_date.day_of_year('date_day') }} as doy, {{ dbt_date.iso_week_of_year('date_day') }} as iso_week, {{ dbt_date.week_of_year('date_day') }} as week",
    'from d',
  ].join('\n'),
  d_unix: "select id, {{ dbt_date.from_unixtimestamp('epoch_s') }} as from_s, {{ dbt_date.to_unixtimestamp(dbt_date.from_unixtimestamp('epoch_s')) }} as back from {{ ref('epochs') }}",
  d_convert_timezone: "select {{ dbt_date.convert_timezone('event_at', 'America/New_York', 'UTC') }} as ny from {{ ref('events') }}",
  // dbt_date casts to date throughout (cast(x as date)): the SQLite engine reads those as date(x).
  d_dimension: "{{ dbt_date.get_date_dimension('2024-01-01', '2024-01-10') }}",
  d_relative: "select {{ dbt_date.n_days_ago(3, \"'2024-01-10'\") }} as three_days_ago, {{ dbt_date.n_days_away(3, \"'2024-01-30'\") }} as three_days_away",
};

const TESTS_YML = `version: 2
models:
  - name: u_generate_series
    data_tests:
      - dbt_utils.expression_is_true: {expression: "generated_number > 0"}
      - dbt_utils.equality: {compare_model: ref('u_generate_series')}
      - dbt_utils.not_empty_string: {column_name: generated_number}
      - dbt_utils.unique_combination_of_columns: {combination_of_columns: ['generated_number']}
      - dbt_utils.at_least_one: {column_name: generated_number}
      - dbt_utils.not_constant: {column_name: generated_number}
      - dbt_utils.accepted_range: {column_name: generated_number, min_value: 1, max_value: 5}
      - dbt_utils.not_accepted_values: {column_name: generated_number, values: [0, 6]}
      - dbt_utils.not_null_proportion: {column_name: generated_number, at_least: 0.9}
      - dbt_utils.sequential_values: {column_name: generated_number, interval: 1}
      - dbt_utils.cardinality_equality: {column_name: generated_number, to: ref('u_generate_series'), field: generated_number}
      - dbt_utils.relationships_where: {column_name: generated_number, to: ref('u_generate_series'), field: generated_number, from_condition: "1=1"}
  - name: u_date_spine
    data_tests:
      - dbt_utils.sequential_values: {column_name: date_day, datepart: day, interval: 1}
seeds:
  - name: ranges
    data_tests:
      - dbt_utils.mutually_exclusive_ranges: {lower_bound_column: lower_bound, upper_bound_column: upper_bound, partition_by: grp, gaps: allowed}
  - name: events
    data_tests:
      - dbt_utils.recency: {datepart: day, field: event_at, interval: 100000}
      - dbt_utils.recency: {datepart: day, field: event_at, interval: 1, config: {severity: warn}}
`;

/** The survey project: seeds, one model per macro, the generic tests, the packages from the mirrors. */
function surveyProject(): string {
  const models = Object.fromEntries([...Object.entries(UTILS_MODELS), ...Object.entries(DATE_MODELS)].map(([name, sql]) => [`models/${name}.sql`, sql]));
  const dir = writeProject({
    'dbt_project.yml': "name: survey\nversion: '1.0'\nprofile: default\nvars:\n  'dbt_date:time_zone': America/Los_Angeles\nmodels:\n  survey:\n    +materialized: table\n",
    ...SEEDS,
    ...models,
    'models/tests.yml': TESTS_YML,
  });
  install(UTILS, join(dir, 'dbt_packages/dbt_utils'));
  install(DATE, join(dir, 'dbt_packages/dbt_date'));
  return dir;
}

const suite = present ? describe : describe.skip;

suite('dbt_utils and dbt_date from the mirrors, on SQLite', () => {
  const dir = present ? surveyProject() : '';
  const build = present ? runCli(['build', '--project-dir', dir]) : { code: -1, stdout: '', stderr: '' };
  const rows = (model: string): Record<string, unknown>[] => tableRows(dir, model);

  it('the packages load, and every model and test passes', () => {
    expect(build.stderr).toBe('');
    expect(build.stdout).toMatch(/ERROR=0 /);
    expect(build.stdout).toMatch(/WARN=1 /); // recency within one day of today: the data is from 2024
  });

  it('SQL generators: date_spine, generate_series, deduplicate, surrogate keys, safe math, group_by, star', () => {
    expect(rows('u_date_spine').map((r) => r.date_day)).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04']);
    expect(rows('u_date_spine_month').map((r) => r.date_month)).toEqual(['2024-01-01', '2024-02-01', '2024-03-01']);
    expect(rows('u_generate_series').map((r) => r.generated_number)).toEqual([1, 2, 3, 4, 5]);
    // With the shim: one row per user, the row with a NULL amount kept (dbt_utils' default natural join drops it).
    expect(rows('u_deduplicate').map((r) => r.id)).toEqual([2, 3, 5]);
    const keys = rows('u_generate_surrogate_key');
    expect(keys[0]!.sk).toBe('acd8d51dbc59f977ac79ebfd11f26346'); // md5('1-signup'), as on PostgreSQL
    expect(keys[3]!.sk).toBe(keys[4]!.sk);
    expect(rows('u_safe_math').map((r) => [r.a, r.s, r.d])).toEqual([[11.5, 9.5, null], [22, 18, null], [3, -3, null], [9.25, 1.25, 2.625], [10.25, 0.25, 2.625]]);
    expect(rows('u_group_by').map((r) => r.n)).toEqual([1, 1, 1, 2]);
    expect(Object.keys(rows('u_star')[0]!)).toEqual(['id', 'user_id', 'event', 'event_at', 'amount', 'p_id_x', 'p_name_x', 'p_city_x']);
  });

  it('union_relations (with the SQLite shim), unpivot, pivot, width_bucket, haversine_distance, nullcheck_table', () => {
    expect(rows('u_union_relations')).toEqual([
      { _dbt_source_relation: '"main"."people_a"', id: 1, name: 'Ann', city: 'Paris', country: null },
      { _dbt_source_relation: '"main"."people_a"', id: 2, name: 'Bob', city: 'Oslo', country: null },
      { _dbt_source_relation: '"main"."people_b"', id: 3, name: 'Cid', city: null, country: 'FR' },
    ]);
    expect(rows('u_unpivot')).toHaveLength(4);
    expect(rows('u_pivot')).toEqual([{ user_id: 1, purchase: 1, signup: 1 }, { user_id: 2, purchase: 0, signup: 1 }, { user_id: 3, purchase: 2, signup: 0 }]);
    expect(rows('u_width_bucket').map((r) => r.bucket)).toEqual([3, 5, null, 2, 2]);
    expect(Number(rows('u_haversine_distance')[0]!.km)).toBeCloseTo(343.32, 1);
    expect(rows('u_nullcheck_table')[2]!.amount).toBeNull();
  });

  it('introspective macros: get_column_values, get_filtered_columns_in_relation, get_relations_by_pattern/prefix (shim), get_query_results_as_dict, get_single_value', () => {
    expect(rows('u_get_column_values')[0]!.vals).toBe('purchase,signup');
    expect(rows('u_get_column_values_default')[0]!.vals).toBe('d1,d2'); // its return(default) inside a statement block
    expect(rows('u_get_filtered_columns_in_relation')[0]!.cols).toBe('id,user_id,event,event_at,amount,lat,lon');
    expect(rows('u_get_relations_by_pattern')).toEqual(rows('u_union_relations'));
    expect(rows('u_get_relations_by_prefix')).toEqual(rows('u_union_relations'));
    expect(rows('u_get_query_results_as_dict')).toEqual([{ events: 'purchase,signup', ns: '3,2' }]);
    expect(rows('u_get_single_value')[0]!.m).toBe(20);
  });

  it('web and Jinja helpers', () => {
    expect(rows('u_web').map((r) => [r.host, r.path, r.src])).toEqual([
      ['www.example.com', 'path/to/page', 'google'], ['shop.example.org', 'cart', 'bing'], ['example.net', '', null], ['a.b.example.com:8080', 'x/y', null], ['www.example.com', 'z', 'fb'],
    ]);
    expect(rows('u_jinja_helpers')).toEqual([{ slug: 'hello_world_2x', pretty_time_ok: 1 }]);
  });

  it("dbt_date: base dates, names and week numbers as PostgreSQL gives them, unix timestamps, convert_timezone", () => {
    expect(rows('d_base_dates').map((r) => r.date_day)).toEqual(['2024-01-01', '2024-01-02', '2024-01-03']);
    expect(rows('d_parts')).toEqual([
      { date_day: '2024-01-07', day_short: 'Sun', month_long: 'January', dow_iso: 7, dow: 1, doy: 7, iso_week: 1, week: 1 },
      { date_day: '2024-12-30', day_short: 'Mon', month_long: 'December', dow_iso: 1, dow: 2, doy: 365, iso_week: 1, week: 53 },
    ]);
    expect(rows('d_unix')).toEqual([{ id: 1, from_s: '2024-01-01 00:00:00', back: 1704067200 }, { id: 2, from_s: '2024-06-10 06:13:20', back: 1718000000 }]);
    // dbt_date's default writes Snowflake's convert_timezone(source, target, ts), which the SQLite engine registers.
    expect(rows('d_convert_timezone').map((r) => r.ny)).toEqual(['2024-01-01 05:00:00', '2024-01-02 06:30:00', '2024-01-02 07:00:00', '2024-01-03 04:15:00', '2024-01-04 04:15:00']);
  });

  it("dbt_date's date dimension and relative dates are dates, not years (cast(x as date) read as date(x))", () => {
    const sunday = rows('d_dimension').find((r) => r.date_day === '2024-01-07');
    // week_start is dbt_date's default__ (date_trunc('week'): Monday), as on every engine without its own variant.
    expect(sunday).toMatchObject({
      prior_date_day: '2024-01-06', next_date_day: '2024-01-08', day_of_week: 1, day_of_week_iso: 7, day_of_week_name: 'Sunday',
      week_start_date: '2024-01-01', week_end_date: '2024-01-07', month_start_date: '2024-01-01', month_end_date: '2024-01-31',
      quarter_end_date: '2024-03-31', year_end_date: '2024-12-31', year_number: 2024,
    });
    expect(rows('d_dimension')).toHaveLength(9);
    expect(rows('d_relative')).toEqual([{ three_days_ago: '2024-01-07', three_days_away: '2024-02-02' }]);
  });
});

(present ? describe : describe.skip)('dbt_utils.surrogate_key (replaced in dbt_utils 1.0)', () => {
  it("stops the parse with dbt_utils' own message, as dbt does", () => {
    const dir = writeProject({ 'dbt_project.yml': "name: survey\nversion: '1.0'\nprofile: default\n", 'models/k.sql': "select {{ dbt_utils.surrogate_key(['id']) }} as k" });
    install(UTILS, join(dir, 'dbt_packages/dbt_utils'));
    const out = runCli(['build', '--project-dir', dir]);
    expect(out.code).not.toBe(0);
    expect(out.stdout + out.stderr).toMatch(/`dbt_utils\.surrogate_key` has been replaced by\s+`dbt_utils\.generate_surrogate_key`/);
  });
});

if (!present) {
  describe('dbt_utils and dbt_date from the mirrors', () => {
    it.skip(reason, () => undefined);
  });
}

(present ? describe : describe.skip)("mini-dbt's shims match the packages' macros", () => {
  it('each shim replaces a dispatched package macro that has a default__ of its own', () => {
    const sources: Record<string, string> = {
      dbt_utils: execSync(`git --git-dir=${JSON.stringify(UTILS)} grep -h "macro " HEAD -- macros`, { encoding: 'utf8' }),
      dbt_date: execSync(`git --git-dir=${JSON.stringify(DATE)} grep -h "macro " HEAD -- macros`, { encoding: 'utf8' }),
    };
    expect(Object.keys(SHIMMED_MACROS).sort()).toEqual(['dbt_date', 'dbt_utils']);
    for (const [namespace, names] of Object.entries(SHIMMED_MACROS)) {
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(sources[namespace], `${namespace}.default__${name}`).toMatch(new RegExp(`macro\\s+default__${name}\\s*\\(`));
    }
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEPS_BAD_INPUTS } from './deps-bad-inputs.js';

/**
 * The bad inputs of docs/errors.md, each as a runnable case on a copy of
 * the built example project. The expected message and exit code come from
 * the doc itself, so the doc cannot drift from what users see.
 */
export interface BadInput {
  readonly id: string;
  /** Change the project copy (and possibly start a lock holder); returns a cleanup. */
  readonly edit?: (dir: string) => (() => void) | void;
  readonly args: readonly string[];
}

const write = (path: string, text: string) => (dir: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const patch = (path: string, from: string | RegExp, to: string) => (dir: string) => {
  const file = join(dir, path);
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`patch of ${path} changed nothing`);
  writeFileSync(file, next);
};
/** The markdown file and docs block the E123-E126 cases write. */
const DOCS_MD = 'models/docs.md';
const DOCS_BLOCK = '{% docs raw_orders %}\nEvery order line the shop sent.\n{% enddocs %}\n';
/** The yml file the E140-E146 cases write: one unit test `t` of `model` with the given inputs. */
const UNIT_YML = 'models/unit_more.yml';
const unitTest = (model: string, given: string, overrides = '') =>
  `unit_tests:\n  - name: t\n    model: ${model}\n${overrides}    given:${given === '' ? ' []' : ''}\n${given}    expect:\n      rows: []\n`;
/** The snapshot file the E127-E133 cases write. */
const SNAPSHOT = 'snapshots/orders_snapshot.sql';
const sql = (statement: string) => async (dir: string) => {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(dir, 'warehouse.db'));
  db.exec(statement);
  db.close();
};

/** A dbt-sqlite profile for the example: two targets, both on the project's own warehouse file. */
const PROFILE = `brightcart:
  target: dev
  outputs:
    dev:
      type: sqlite
      schemas_and_paths:
        main: warehouse.db
    prod:
      type: sqlite
      schemas_and_paths:
        main: warehouse.db
`;
const withProfile = (profile: string) => (dir: string) => {
  write('profiles.yml', profile)(dir);
  patch('project.yml', /^name: brightcart\n/m, 'name: brightcart\nprofile: brightcart\n')(dir);
};
const both = (...edits: ((dir: string) => void)[]) => (dir: string) => {
  for (const edit of edits) edit(dir);
};

/** A separate process holding the warehouse's write lock until the returned cleanup. */
function holdLock(dir: string): () => void {
  const ready = join(dir, 'lock-held');
  const script = `const D=require(${JSON.stringify(join(process.cwd(), 'node_modules/better-sqlite3'))});const d=new D(${JSON.stringify(join(dir, 'warehouse.db'))});d.exec('BEGIN IMMEDIATE');require('fs').writeFileSync(${JSON.stringify(ready)},'1');setTimeout(()=>{},60000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  while (!existsSync(ready) && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  return () => {
    child.kill('SIGKILL');
    rmSync(ready, { force: true });
  };
}

const DAILY = 'models/marts/daily_revenue.sql';
const MONTHLY = 'models/marts/monthly_revenue.sql';
/** The E190-E194 cases: a model `contracted` and its yml, with an enforced contract. */
const contracted = (model: string, columns: string, config = '') => both(
  write('models/marts/contracted.sql', model),
  write('models/marts/contracted.yml', `models:\n  - name: contracted\n    config:\n      contract: {enforced: true}\n${config}    columns:\n${columns}`),
);

export const BAD_INPUTS: readonly BadInput[] = [
  { id: 'E01', edit: (d) => rmSync(join(d, 'project.yml')), args: ['run'] },
  { id: 'E02', edit: write('project.yml', 'name: brightcart\nvars: [\n'), args: ['run'] },
  { id: 'E105', edit: patch('project.yml', /^name: brightcart\n/m, 'name: brightcart\nsource-paths: [models]\nmodel-paths: [models]\n'), args: ['ls'] },
  { id: 'E106', edit: patch('project.yml', /^name: brightcart\n/m, 'name: brightcart\ntests:\n  +severity: warn\ndata_tests:\n  +severity: warn\n'), args: ['ls'] },
  { id: 'E107', edit: write('models/more.yml', "sources:\n  - name: extra\n    tables:\n      - name: t\n        identifier: \"{{ var('extra_table') }}\"\n"), args: ['run'] },
  { id: 'E108', edit: withProfile(PROFILE), args: ['run', '--target', 'prd'] },
  { id: 'E109', edit: withProfile(PROFILE.replace('brightcart:', 'shop:')), args: ['ls'] },
  { id: 'E110', edit: withProfile(PROFILE.replace('main: warehouse.db\n    prod', 'main: warehouse.db\n        raw: models\n    prod')), args: ['run'] },
  { id: 'E111', edit: both(withProfile(PROFILE), patch('project.yml', /^  marts:\n/m, '  marts:\n    +schema: marts\n')), args: ['run'] },
  { id: 'E112', edit: withProfile(PROFILE.replace('type: sqlite', 'type: snowflake')), args: ['ls'] },
  { id: 'E113', args: ['show'] },
  { id: 'E114', args: ['show', '--inline', 'delete from raw_orders'] },
  { id: 'E115', args: ['show', '--select', 'montly_revenue'] },
  { id: 'E116', args: ['run-operation', 'lookback_day'] },
  { id: 'E117', edit: write('macros/bad_op.sql', "{% macro bad_op() %}{% do run_query('select * from no_such_table') %}{% endmacro %}\n"), args: ['run-operation', 'bad_op'] },
  { id: 'E118', edit: patch('project.yml', /^name: brightcart\n/m, 'name: brightcart\non-run-start: "insert into no_such_table values (1)"\n'), args: ['run'] },
  { id: 'E119', edit: patch('project.yml', /^name: brightcart\n/m, 'name: brightcart\non-run-end: "insert into no_such_table values (1)"\n'), args: ['test'] },
  { id: 'E120', edit: write('models/more.yml', 'sources:\n  - name: raw\n    tables:\n      - name: orders\n        freshness: {warn_after: {count: 1, period: week}}\n'), args: ['source', 'freshness'] },
  { id: 'E121', args: ['init', 'models'] },
  { id: 'E122', args: ['init', '1shop'] },
  { id: 'E123', edit: (d) => { write(DOCS_MD, DOCS_BLOCK)(d); write('models/more.yml', `sources:\n  - name: shop\n    tables:\n      - name: orders\n        description: "{{ doc('raw_order') }}"\n`)(d); }, args: ['ls'] },
  { id: 'E124', edit: (d) => { write(DOCS_MD, DOCS_BLOCK)(d); write('models/marts/more.md', '{% docs raw_orders %}\nAgain.\n{% enddocs %}\n')(d); }, args: ['ls'] },
  { id: 'E125', edit: write(DOCS_MD, 'The raw feed.\n\n{% docs %}\nEvery order line.\n{% enddocs %}\n'), args: ['ls'] },
  { id: 'E126', edit: write(DOCS_MD, 'The raw feed.\n\n{% docs raw_orders %}\nEvery order line.\n'), args: ['ls'] },
  { id: 'E127', edit: write(SNAPSHOT, `{% snapshot orders_snapshot %}\n{{ config(strategy='timestamp', updated_at='load_date') }}\nselect * from {{ ref('raw_orders') }}\n{% endsnapshot %}\n`), args: ['snapshot'] },
  { id: 'E128', edit: write(SNAPSHOT, `{% snapshot orders_snapshot %}\n{{ config(unique_key='order_id', strategy='timestamp') }}\nselect * from {{ ref('raw_orders') }}\n{% endsnapshot %}\n`), args: ['snapshot'] },
  { id: 'E129', edit: write(SNAPSHOT, `{% snapshot orders_snapshot %}\n{{ config(unique_key='order_id', strategy='check') }}\nselect * from {{ ref('raw_orders') }}\n{% endsnapshot %}\n`), args: ['snapshot'] },
  { id: 'E130', edit: write(SNAPSHOT, `{% snapshot orders_snapshot %}\n{{ config(unique_key='order_id', strategy='timestamps', updated_at='load_date') }}\nselect * from {{ ref('raw_orders') }}\n{% endsnapshot %}\n`), args: ['snapshot'] },
  { id: 'E131', edit: write(SNAPSHOT, `{% snapshot orders_snapshot %}\n{{ config(unique_key='order_id', strategy='timestamp', updated_at='load_date', hard_deletes='delete') }}\nselect * from {{ ref('raw_orders') }}\n{% endsnapshot %}\n`), args: ['build'] },
  { id: 'E132', edit: write(SNAPSHOT, `{% snapshot orders_snapshot %}\n{{ config(unique_key='order_id', strategy='check', check_cols=['stauts']) }}\nselect * from {{ ref('raw_orders') }}\n{% endsnapshot %}\n`), args: ['snapshot'] },
  { id: 'E133', edit: write(SNAPSHOT, "{% snapshot orders_snapshot %}\nselect * from {{ ref('raw_orders') }}\n"), args: ['ls'] },
  { id: 'E134', edit: (d) => { write('seeds/extra.csv', 'id,First Name\n1,a\n')(d); write('seeds/extra.yml', 'seeds:\n  - name: extra\n    config:\n      quote_columns: false\n')(d); }, args: ['seed', '-s', 'extra'] },
  { id: 'E135', edit: (d) => { write('seeds/extra.csv', 'id,name\n1,a\n')(d); write('seeds/extra.yml', "seeds:\n  - name: extra\n    config:\n      quote_columns: 'yes'\n")(d); }, args: ['seed', '-s', 'extra'] },
  { id: 'E136', edit: write('models/more.yml', "sources:\n  - name: raw\n    tables:\n      - name: orders\n        loaded_at_field: load_date\n        loaded_at_query: select max(load_date) from {{ this }}\n        freshness: {warn_after: {count: 1, period: day}}\n"), args: ['source', 'freshness'] },
  { id: 'E137', edit: write('models/more.yml', "sources:\n  - name: raw\n    loaded_at_field: ''\n    tables:\n      - name: orders\n        freshness: {warn_after: {count: 1, period: day}}\n"), args: ['source', 'freshness'] },
  { id: 'E138', edit: patch('project.yml', /^name: brightcart\n/m, 'name: brightcart\nsources:\n  +loaded_at_field: load_date\n'), args: ['ls'] },
  { id: 'E139', edit: write(SNAPSHOT, `{% snapshot orders_snapshot %}\n{{ config(unique_key='order_id', strategy='timestamp', updated_at='load_date') }}\nselect * from {{ ref('raw_orders') }}\n{% endsnapshot %}\n`), args: ['show', '-s', 'orders_snapshot'] },
  { id: 'E140', edit: write(UNIT_YML, unitTest('daily_revenu', '')), args: ['test'] },
  { id: 'E141', edit: write(UNIT_YML, unitTest('monthly_revenue', "      - input: ref('daily_revenu')\n        rows: []\n")), args: ['test'] },
  { id: 'E142', edit: write(UNIT_YML, unitTest('daily_revenue', "      - input: ref('raw_orders')\n        rows: []\n")), args: ['test'] },
  { id: 'E143', edit: write(UNIT_YML, unitTest('daily_revenue', "      - input: ref('raw_orders')\n        rows: []\n", '    overrides:\n      macros:\n        is_incremental: true\n')), args: ['test'] },
  { id: 'E144', edit: write(UNIT_YML, unitTest('monthly_revenue', "      - input: ref('daily_revenue')\n        format: json\n        rows: []\n")), args: ['test'] },
  { id: 'E145', edit: write(UNIT_YML, unitTest('monthly_revenue', '')), args: ['test', '-s', 'test_type:unit'] },
  { id: 'E146', edit: write(UNIT_YML, unitTest('monthly_revenue', "      - input: ref('daily_revenue')\n        rows:\n          - {order_date: '2026-09-01', revenu: 10}\n")), args: ['test', '-s', 'test_type:unit'] },
  { id: 'E03', edit: patch('project.yml', /^name: brightcart\n/m, 'name: brightcart\nmodelz: {}\n'), args: ['ls'] },
  { id: 'E04', edit: write('project.yml', 'name: brightcart\nmodel-paths: 3\n'), args: ['run'] },
  { id: 'E05', edit: write('models/schema.yml', 'models:\n  - name: x\n   bad: [\n'), args: ['run'] },
  { id: 'E06', edit: write('models/more.yml', 'models:\n  - name: daily_revenu\n    description: typo\n'), args: ['ls'] },
  { id: 'E07', edit: write(MONTHLY, 'select 1\n{{ foo( }}\n'), args: ['run'] },
  { id: 'E08', edit: write(MONTHLY, 'select 1 as a,\n  {{ as_off() }} as b\n'), args: ['run'] },
  { id: 'E09', edit: write(MONTHLY, "select\n  {{ var('currency') }} as c\n"), args: ['run', '-s', 'monthly_revenue'] },
  { id: 'E10', edit: write(MONTHLY, "select *\nfrom {{ ref('daily_revenu') }}\n"), args: ['run'] },
  { id: 'E11', edit: write(MONTHLY, "select * from {{ ref('monthly_revenue') }}\n"), args: ['run'] },
  { id: 'E12', edit: write(MONTHLY, "select * from {{ source('shop', 'orders') }}\n"), args: ['run'] },
  { id: 'E13', edit: write(MONTHLY, "{{ config(materialized='tabel') }}select 1 as a"), args: ['run'] },
  { id: 'E14', edit: write(MONTHLY, "{{ config(materialized='incremental', incremental_strategy='upsert') }}select 1 as a"), args: ['run'] },
  { id: 'E15', edit: (d) => { write(MONTHLY, "select * from {{ ref('cyc') }}")(d); write('models/marts/cyc.sql', "select * from {{ ref('monthly_revenue') }}")(d); }, args: ['run'] },
  { id: 'E16', edit: write('models/staging/monthly_revenue.sql', 'select 1 as a'), args: ['run'] },
  { id: 'E17', args: ['run', '--select', 'daly_revenue'] },
  { id: 'E18', args: ['run', '--warn-error', '--select', 'tag:finance', '--exclude', 'tag:finance'] },
  { id: 'E19', args: ['run', '--select', 'daily_revenue++'] },
  { id: 'E20', args: ['run', '--select', 'tags:finance'] },
  { id: 'E21', args: ['run', '--vars', '{as_of: [1'] },
  { id: 'E22', args: ['run', '--vars', '[1, 2]'] },
  { id: 'E23', args: ['backfill', 'daily_revenue', '--start', '2026-10-05', '--end', '2026-10-01', '--reason', 'test'] },
  { id: 'E24', args: ['backfill', 'daily_revenue', '--start', '2026-13-01', '--end', '2026-10-01', '--reason', 'test'] },
  { id: 'E25', args: ['backfill', 'daily_revenue', '--start', "2026-09-01'; DROP TABLE raw_orders; --", '--end', '2026-10-01', '--reason', 'test'] },
  { id: 'E26', args: ['backfill', 'monthly_revenue', '--start', '2026-10-01', '--end', '2026-10-02', '--reason', 'test'] },
  { id: 'E27', edit: patch(DAILY, "unique_key='order_date',", "unique_key='order_date', full_refresh=false, full_refresh_ignored='error',"), args: ['run', '--full-refresh'] },
  { id: 'E28', args: ['backfill', 'daily_revenue', '--start', '2026-10-01', '--end', '2026-10-02'] },
  { id: 'E29', args: ['run', '--selct', 'daily_revenue'] },
  { id: 'E30', args: ['run', '-s', 'daily_revenue', '--vars', '{start: "2026-09-01", end: "last week"}'] },
  { id: 'E31', edit: write('seeds/raw_orders.csv', 'load_date,order_id,order_date,status,amount\n2026-09-01,1,2026-09-01,delivered,10.00\n2026-09-01,2,2026-09-01,delivered\n'), args: ['seed'] },
  { id: 'E32', edit: patch('seeds/raw_orders.yml', 'status: TEXT', 'status: INTEGER'), args: ['seed'] },
  { id: 'E33', edit: patch(DAILY, "unique_key='order_date'", "unique_key='order_day'"), args: ['run', '-s', 'daily_revenue'] },
  { id: 'E34', edit: patch(DAILY, /group by order_date\s*$/, "group by order_date\nunion all select '2026-10-30', 1, 0, 0\n"), args: ['backfill', 'daily_revenue', '--start', '2026-10-01', '--end', '2026-10-31', '--reason', 'test'] },
  { id: 'E35', edit: patch(DAILY, /group by order_date\s*$/, 'group by order_date\nunion all select null, 1, 0, 0\n'), args: ['backfill', 'daily_revenue', '--start', '2026-10-01', '--end', '2026-10-31', '--reason', 'test'] },
  { id: 'E36', edit: (d) => holdLock(d), args: ['run', '-s', 'daily_revenue', '--busy-timeout', '100'] },
  { id: 'E37', edit: write('warehouse.db', 'this is a text file, not a SQLite database; mini-dbt must not touch it.\n'.repeat(20)), args: ['run'] },
  { id: 'E38', edit: sql('alter table daily_revenue add column note text'), args: ['run', '-s', 'daily_revenue'] },
  { id: 'E39', edit: write(DAILY, "select order_date, no_such_column from {{ ref('raw_orders') }}"), args: ['run'] },
  { id: 'E40', edit: patch('project.yml', 'lookback_days: 3', 'lookback_days: 3\n  start: 2026-09-01'), args: ['run', '-s', 'daily_revenue'] },
  { id: 'E41', edit: (d) => write('models/marts/_mini_dbt_runs.sql', readFileSync(join(d, MONTHLY), 'utf8'))(d), args: ['run'] },
  { id: 'E42', edit: patch(MONTHLY, /^/, "{{ config(alias='_mini_dbt_partitions') }}\n"), args: ['run'] },
  { id: 'E43', edit: write('seeds/Orders__MINI_DBT_tmp.csv', 'a\n1\n'), args: ['seed'] },
  { id: 'E44', edit: patch(MONTHLY, /^/, "{{ config(alias='raw_orders') }}\n"), args: ['run'] },
  { id: 'E45', edit: write('models/marts/Raw_Orders.sql', 'select 1 as a'), args: ['run'] },
  { id: 'E46', edit: write(MONTHLY, 'select 1 as a;\ndelete from raw_orders\n'), args: ['run'] },
  { id: 'E47', edit: write('tests/no_orders.sql', "select * from {{ ref('raw_orders') }} where 0; delete from raw_orders\n"), args: ['test'] },
  { id: 'E48', edit: patch(DAILY, "unique_key='order_date',", "unique_key='order_date', incremental_predicates=['1 = 1); delete from raw_orders; select (1'],"), args: ['run', '-s', 'daily_revenue'] },
  { id: 'E49', edit: (d) => { patch(DAILY, "unique_key='order_date',", "unique_key='order_date', unique_key_nulls='error',")(d); patch(DAILY, /group by order_date\s*$/, 'group by order_date\nunion all select null, 1, 0, 0\n')(d); }, args: ['run', '-s', 'daily_revenue'] },
  { id: 'E50', edit: patch(DAILY, "unique_key='order_date',", "unique_key='order_date', unique_key_nulls='never',"), args: ['run', '-s', 'daily_revenue'] },
  { id: 'E51', args: ['run', '-s', 'daily_revenue', '--vars', "{as_of: '2026-02-30'}"] },
  { id: 'E52', args: ['run', '-s', 'daily_revenue', '--vars', '{lookback_days: -3}'] },
  { id: 'E53', args: ['backfill', 'daily_revenue', '--start', '2026-09-01', '--end', '9999-12-31', '--reason', 'test'] },
  { id: 'E54', args: ['run', '--event-time-start', '2026-13-40', '--event-time-end', '2027-01-01'] },
  { id: 'E55', args: ['lateness', 'raw_orders', '--lookback', '99999999'] },
  { id: 'E56', args: ['history', 'daily_revenue', '--partition', ''] },
  { id: 'E57', args: ['run', '--select', ''] },
  { id: 'E58', args: ['backfill', 'daily_revenue', '--start', '2026-10-01', '--end', '2026-10-02', '--reason', ''] },
  { id: 'E59', edit: patch('project.yml', 'database: warehouse.db', "database: warehouse.db\ntarget-path: ''"), args: ['run'] },
  { id: 'E60', edit: (d) => holdLock(d), args: ['backfill', 'daily_revenue', '--start', '2026-10-01', '--end', '2026-10-02', '--reason', 'test', '--busy-timeout', '100'] },
  { id: 'E61', args: ['run', '-s', 'daily_revenue', '--vars', "{as_of: '2031-01-11'}"] },
  { id: 'E62', args: ['run', '-s', 'daily_revenue', '--vars', '{asof: 2026-10-01}'] },
  { id: 'E63', edit: (d) => { rmSync(join(d, 'project.yml')); mkdirSync(join(d, 'project.yml')); }, args: ['run'] },
  { id: 'E64', edit: write('project.yml', `name: brightcart\ndatabase: warehouse.db\nvars:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n${Array.from({ length: 9 }, (_, i) => `  a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`).join('\n')}\n`), args: ['run'] },
  { id: 'E65', edit: write('models/bomb.yml', `version: 2\nx:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n${Array.from({ length: 9 }, (_, i) => `  a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`).join('\n')}\n`), args: ['run'] },
  { id: 'E66', args: ['run', '--vars', `{a0: &a0 [x, x, x, x, x, x, x, x, x], ${Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]`).join(', ')}}`] },
  { id: 'E67', edit: write('target', 'not a folder'), args: ['run'] },
  { id: 'E68', edit: write('target/run_results.json', '{"results": [{"unique_id": "model.brightcart.daily_revenue", "sta'), args: ['retry'] },
  { id: 'E69', edit: write('target/partial_parse.json', '{"format": 3, "projectKey": "ab'), args: ['ls'] },
  { id: 'E70', edit: async (d) => { (await import('node:child_process')).execFileSync('mkfifo', [join(d, 'models/pipe.sql')]); }, args: ['ls'] },
  { id: 'E71', edit: async (d) => { (await import('node:fs')).symlinkSync(join(d, 'models/nowhere.sql'), join(d, 'models/dangling.sql')); }, args: ['ls'] },
  { id: 'E72', edit: sql("insert into raw_orders values ('9999-99-99', 900001, '2026-09-01', 'delivered', 1)"), args: ['lateness', 'raw_orders'] },
  { id: 'E73', edit: (d) => writeFileSync(join(d, 'seeds/raw_orders.csv'), Buffer.from('load_date,order_id,order_date,status,amount\n2026-09-01,1,2026-09-01,d\xe9livered,1\n', 'latin1')), args: ['seed'] },
  { id: 'E74', edit: write('seeds/raw_orders.csv', 'load_date,order_id,order_date,status,amount\n2026-09-01,1,2026-09-01,d"elivered,1\n'), args: ['seed'] },
  { id: 'E75', edit: write('seeds/raw_orders.csv', '  \n\n \t \n'), args: ['seed'] },
  { id: 'E76', edit: patch('seeds/raw_orders.yml', '    config:\n', "    config:\n      delimiter: ';;'\n"), args: ['seed'] },
  { id: 'E77', edit: patch(DAILY, 'where load_date <= {{ as_of() }}', 'where load_date <= {{ as_off() }}'), args: ['run'] },
  { id: 'E78', edit: write(MONTHLY, 'select 1 as a,\n  {{ return(1) }} as b\n'), args: ['run'] },
  { id: 'E79', edit: write(MONTHLY, 'select 1 as a\n{{ exceptions.raise_compiler_error() }}\n'), args: ['run'] },
  { id: 'E80', edit: write(MONTHLY, 'select *\nfrom {{ ref() }}\n'), args: ['run'] },
  { id: 'E81', edit: write(MONTHLY, "select *\nfrom {{ source('only_one') }}\n"), args: ['run'] },
  { id: 'E82', edit: write(MONTHLY, 'select\n  {{ var() }} as a\n'), args: ['run'] },
  { id: 'E83', edit: write(MONTHLY, 'select 1 as a\n{{ config(1) }}\n'), args: ['run'] },
  { id: 'E84', edit: write(MONTHLY, 'select 1 as a,\n  {{ this() }} as b\n'), args: ['run'] },
  { id: 'E85', edit: write(MONTHLY, 'select 1 as a,\n  {{ adapter.nope() }} as b\n'), args: ['run'] },
  { id: 'E86', edit: write('macros/mine.sql', "{# mine #}\n{% macro var(x) %}'{{ x }}'{% endmacro %}\n"), args: ['run'] },
  { id: 'E87', edit: write(MONTHLY, "select\n  {{ ''.constructor.constructor('return 1')() }} as a\n"), args: ['run'] },
  { id: 'E88', edit: (d) => { write('macros/grab.sql', "{% macro grab(x) %}{{ x|attr('__proto__') }}{% endmacro %}\n")(d); write(MONTHLY, "select {{ grab(ref('daily_revenue')) }} as a\n")(d); }, args: ['run'] },
  { id: 'E89', edit: write(MONTHLY, 'select\n  {{ range(1000000)|length }} as a\n'), args: ['run'] },
  { id: 'E90', edit: (d) => { write('macros/loop.sql', '{% macro loop_forever(n) %}{{ loop_forever(n + 1) }}{% endmacro %}\n')(d); write(MONTHLY, 'select {{ loop_forever(0) }} as a\n')(d); }, args: ['run'] },
  { id: 'E91', edit: write(MONTHLY, "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='order_date', begin='1900-01-01', batch_size='hour') }}\nselect * from {{ ref('daily_revenue') }}\n"), args: ['run', '-s', 'monthly_revenue', '--vars', '{as_of: 2026-10-01}'] },
  { id: 'E92', edit: write(MONTHLY, "{% set this.name = 'raw_orders' %}\nselect 1 as a\n"), args: ['run'] },
  { id: 'E93', edit: patch(DAILY, "unique_key='order_date',", "unique_key='order_date', full_refresh=false, full_refresh_ignored='refuse',"), args: ['run', '--full-refresh'] },
  { id: 'E94', edit: write(MONTHLY, "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='order_date', begin='2026-09-01', batch_size='day', fill_gaps='yes') }}\nselect * from {{ ref('daily_revenue') }}\n"), args: ['run', '-s', 'monthly_revenue'] },
  { id: 'E95', edit: write(MONTHLY, "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='order_date', begin='2026-09-01', batch_size='day', rows_outside_batch='drop') }}\nselect * from {{ ref('daily_revenue') }}\n"), args: ['run', '-s', 'monthly_revenue'] },
  { id: 'E96', args: ['run', '--threads', '0'] },
  { id: 'E97', args: ['--log-level', 'verbose', 'run'] },
  { id: 'E98', args: ['run', '--warn-error-options', '{include: al}'] },
  { id: 'E99', args: ['ls', '--models', 'daily_revenue', '--select', 'daily_revenue'] },
  { id: 'E150', edit: sql("delete from raw_orders; insert into raw_orders values ('2026-09-01', 100, '2026-09-01', 'delivered', 1), ('2026-09-02', 200, '2026-09-02', 'delivered', 2)"), args: ['explain-order', '150'] },
  { id: 'E151', args: ['explain-order', '1', '--model', 'monthly_revenue'] },
  { id: 'E152', edit: patch('seeds/raw_orders.yml', / *event_time: order_date[^\n]*\n/, ''), args: ['explain-order', '1'] },
  { id: 'E153', edit: (d) => write('models/marts/daily_orders.sql', readFileSync(join(d, DAILY), 'utf8'))(d), args: ['explain-order', '1'] },
  { id: 'E154', args: ['explain-order', '1', '--id-column', 'order_idd'] },
  { id: 'E155', edit: sql('drop table raw_orders'), args: ['explain-order', '1'] },
  { id: 'E156', edit: both(write('seeds/raw_returns.csv', 'load_date,return_id,order_date\n2026-09-02,1,2026-09-01\n'), write('seeds/raw_returns.yml', 'seeds:\n  - name: raw_returns\n    config:\n      event_time: order_date\n      loaded_at: load_date\n')), args: ['explain-order', '1'] },
  { id: 'E170', args: ['backfill', 'daily_revenue', '--keys', '1', '--key-column', 'order_i', '--reason', 'x'] },
  { id: 'E171', args: ['backfill', 'daily_revenue', '--keys', '99999999', '--key-column', 'order_id', '--reason', 'x'] },
  { id: 'E172', args: ['backfill', 'daily_revenue', '--stale', '--keys', '1', '--reason', 'x'] },
  { id: 'E173', args: ['backfill', 'daily_revenue', '--start', '2026-09-03', '--end', '2026-09-04', '--key-column', 'order_id', '--reason', 'x'] },
  { id: 'E190', edit: contracted("{{ config(materialized='incremental') }}\nselect 'x' as n", '      - name: n\n        data_type: text\n'), args: ['run', '-s', 'contracted'] },
  { id: 'E191', edit: contracted("{{ config(materialized='table') }}\nselect month from {{ ref('monthly_revenue') }}", '      - name: month\n'), args: ['run', '-s', 'contracted'] },
  { id: 'E192', edit: contracted("{{ config(materialized='table') }}\nselect month, orders from {{ ref('monthly_revenue') }}", '      - name: month\n        data_type: text\n'), args: ['run', '-s', 'contracted'] },
  { id: 'E193', edit: contracted("{{ config(materialized='table') }}\nselect month from {{ ref('monthly_revenue') }} union all select null", '      - name: month\n        data_type: text\n        constraints: [{type: not_null}]\n'), args: ['run', '-s', 'contracted'] },
  { id: 'E194', edit: contracted("{{ config(materialized='table') }}\nselect 'seven' as n", '      - name: n\n        data_type: integer\n'), args: ['run', '-s', 'contracted'] },
  ...DEPS_BAD_INPUTS,
];

/**
 * `as_of` is a var the models read themselves (the example's as_of() macro
 * filters the raw rows on it). A model that never reads it reads every row
 * landed so far, whatever night was asked for: the run warns in one line,
 * the ledger records the run as of everything landed (what it read), and a
 * replay, which would show every night the same rows, is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';

/** Ten days of three events each; each lands the next day, the day's last one three days late. */
function eventsCsv(): string {
  const lines = ['event_id,event_day,loaded_at,amount'];
  let id = 1;
  for (let d = 1; d <= 10; d++) {
    for (let k = 0; k < 3; k++) lines.push(`${id++},2026-03-${String(d).padStart(2, '0')},2026-03-${String(d + (k === 2 ? 3 : 1)).padStart(2, '0')},${10 * d + k}`);
  }
  return `${lines.join('\n')}\n`;
}

const INCREMENTAL = "{{ config(materialized='incremental', unique_key='day', incremental_strategy='delete+insert', partition_by='day') }}\n";

describe('a model that does not read var("as_of")', () => {
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { cwd: dir });

  beforeAll(() => {
    dir = writeProject({
      'dbt_project.yml': 'name: as_of_ignored\nprofile: as_of_ignored\n',
      'seeds/events.csv': eventsCsv(),
      'seeds/events.yml': 'version: 2\nseeds:\n  - name: events\n    config:\n      event_time: event_day\n      loaded_at: loaded_at\n',
      // Reads every row: as_of is nowhere in what it is built from.
      'models/every_row.sql': `${INCREMENTAL}select event_day as day, count(*) as n from {{ ref('events') }} group by 1\n`,
      // Reads as_of through a macro, with a window of two days (no lookback_days var).
      'macros/landed_by.sql': "{% macro landed_by() %}'{{ var('as_of', '9999-12-31') }}'{% endmacro %}\n",
      'models/landed.sql': `${INCREMENTAL}select event_day as day, count(*) as n from {{ ref('events') }} where loaded_at <= {{ landed_by() }}\n{% if is_incremental() %} and event_day >= date({{ landed_by() }}, '-2 days'){% endif %}\ngroup by 1\n`,
      // Built from a model that reads as_of: it reads the rows as of that night too.
      'models/downstream.sql': "{{ config(materialized='table') }}\nselect count(*) as days from {{ ref('landed') }}\n",
    });
    expect(cli('seed').code).toBe(0);
  });

  it('warns in one line naming only that model, and its ledger row records everything landed, not the night asked for', () => {
    const r = cli('run', '--vars', '{as_of: "2026-03-05"}');
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes("var 'as_of'"));
    expect(warnings).toEqual([
      "Warning: model every_row does not read var 'as_of' (nor does anything it is built from): it reads every row landed so far, not the rows landed by 2026-03-05; filter the raw rows on var('as_of') to replay a past night",
    ]);
    // It did read all ten days; the model that reads as_of saw the days landed by the 5th.
    expect(tableRows(dir, 'every_row')).toHaveLength(10);
    expect(tableRows(dir, 'landed').map((row) => row.day)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    const history = (model: string) => JSON.parse(cli('history', model, '--json').stdout).entries[0];
    expect(history('every_row').as_of).toBe('2026-03-13');
    expect(history('landed').as_of).toBe('2026-03-05');
  });

  it('stale compares with a rebuild of everything landed, and says so', () => {
    const r = cli('stale', 'every_row', '--vars', '{as_of: "2026-03-05"}');
    expect(r.stdout).toContain('every_row: 0 of 10 partitions stale (exact: compared with a full rebuild as of 2026-03-13');
    expect(r.stderr).toContain("model every_row does not read var 'as_of'");
  });

  it('replay refuses it (exit 2), before copying anything', () => {
    const r = cli('replay', 'every_row', '--from', '2026-03-04', '--to', '2026-03-06');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Error: model 'every_row' does not read var('as_of') (nor does anything it is built from): every replayed night would read every row landed so far, so a replay cannot show what past nights saw");
    expect(r.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
  });

  it("replay of a model whose window ignores lookback_days: no second pass, and --compare-lookback is refused", () => {
    const plain = cli('replay', 'landed', '--from', '2026-03-04', '--to', '2026-03-08', '--json');
    expect(plain.code, plain.stderr).toBe(0);
    const result = JSON.parse(plain.stdout);
    expect(result.required_lookback).toBe(3);
    expect(result.with_required_lookback).toBeNull();
    const compared = cli('replay', 'landed', '--from', '2026-03-04', '--to', '2026-03-08', '--compare-lookback', '5');
    expect(compared.code).toBe(2);
    expect(compared.stderr).toContain("Error: --compare-lookback 5: model 'landed' does not read var('lookback_days')");
  });
});

import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';
import { runCli } from '../support/run-cli.js';

/**
 * Conformance with dbt (issue 13): the microbatch configs dbt checks when it
 * parses a project. Modelled on dbt-core's
 * tests/functional/microbatch/test_microbatch_config_validation.py and the
 * checks of core/dbt/parser/manifest.py (check_valid_microbatch_config,
 * check_microbatch_model_has_a_filtered_input). dbt raises a ParsingError
 * before any node runs; mini-dbt's equivalent is exit 2 from any command that
 * loads the project (here `ls`), naming the model.
 */

const INPUT = "{{ config(materialized='table') }}\nselect 1 as id, '2020-01-01 00:00:00' as event_time\n";
const REF = "select * from {{ ref('input_model') }}\n";

const lsOn = (engine: EngineName) => (files: Record<string, string>) => {
  const p = conformanceProject({ 'models/input_model.sql': INPUT, ...files }, 'shop', { engine });
  return runCli(['ls', '--project-dir', p.dir]);
};
const model = (config: string) => ({ 'models/microbatch.sql': `{{ config(materialized='incremental', incremental_strategy='microbatch'${config}) }}\n${REF}` });

describeEachEngine('microbatch configs dbt refuses at parse time: exit 2, naming the model', (engine) => {
  const ls = lsOn(engine);
  const refused: [string, Record<string, string>, string][] = [
    ['event_time missing (TestMissingEventTimeMicrobatch)', model(", batch_size='day', begin='2020-01-01'"), 'event_time'],
    ['event_time not a string (TestInvalidEventTimeMicrobatch)', model(", batch_size='day', begin='2020-01-01', event_time=2"), 'event_time'],
    ['begin missing (TestMissingBeginMicrobatch)', model(", batch_size='day', event_time='event_time'"), 'begin'],
    ['begin not a date (TestInvaliBeginTypeMicrobatch)', model(", batch_size='day', event_time='event_time', begin=2"), 'begin'],
    ['batch_size missing (TestMissingBatchSizeMicrobatch)', model(", event_time='event_time', begin='2020-01-01'"), 'batch_size'],
    ['batch_size not hour/day/month/year (TestInvalidBatchSizeMicrobatch)', model(", batch_size='invalid', event_time='event_time', begin='2020-01-01'"), 'batch_size'],
    ['lookback not a whole number (check_valid_microbatch_config)', model(", batch_size='day', event_time='event_time', begin='2020-01-01', lookback='two'"), 'lookback'],
    ['concurrent_batches not true or false (check_valid_microbatch_config)', model(", batch_size='day', event_time='event_time', begin='2020-01-01', concurrent_batches='yes'"), 'concurrent_batches must be true or false'],
    [
      'begin in yml that is not a date (TestInvaliBegiFormatMicrobatch)',
      {
        'models/microbatch.sql': REF,
        'models/microbatch.yml': 'models:\n  - name: microbatch\n    config:\n      materialized: incremental\n      incremental_strategy: microbatch\n      batch_size: day\n      event_time: event_time\n      begin: 2020-01-01 11 PM\n',
      },
      'begin',
    ],
  ];
  for (const [label, files, names] of refused) {
    it(label, () => {
      const r = ls(files);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain("'microbatch'");
      expect(r.stderr).toContain(names);
    });
  }


  it("an input of a microbatch model whose event_time is not a string is refused at parse (TestInvalidInputEventTimeMicrobatch)", () => {
    const r = ls({
      'models/input_model.sql': "{{ config(materialized='table', event_time=2) }}\nselect 1 as id, '2020-01-01 00:00:00' as event_time\n",
      ...model(", batch_size='day', event_time='event_time', begin='2020-01-01'"),
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain("microbatch model 'microbatch' depends on an input node 'input_model' with an 'event_time' config of invalid (non-string) type");
  });
});

describeEachEngine('microbatch configs dbt accepts', (engine) => {
  const ls = lsOn(engine);
  it('a yml config whose begin is a YAML date (TestValidBeginMicrobatch)', () => {
    const r = ls({
      'models/microbatch.sql': REF,
      'models/schema.yml': 'models:\n  - name: microbatch\n    config:\n      materialized: incremental\n      incremental_strategy: microbatch\n      batch_size: day\n      event_time: event_time\n      begin: 2020-01-01\n',
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('shop.microbatch');
  });

  it('concurrent_batches true or false, and a whole-number lookback', () => {
    for (const extra of [', concurrent_batches=true', ', concurrent_batches=false', ', lookback=0', ', lookback=3']) {
      const r = ls(model(`, batch_size='day', event_time='event_time', begin='2020-01-01'${extra}`));
      expect(r.code, `${extra}: ${r.stdout}${r.stderr}`).toBe(0);
    }
  });
});

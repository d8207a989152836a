import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** dbt's print(): the text as it is on stdout, even with --quiet; --no-print or DBT_PRINT=false silence it. */
describe('print() in templates', () => {
  const dir = writeProject({
    'project.yml': 'name: shop\ndatabase: warehouse.db\n',
    'models/m.sql': '{% do print("hello from m") %}{{ print({"a": 1}) }}\nselect 1 as a\n',
    'macros/op.sql': '{% macro op() %}{% do print("from an operation") %}{% endmacro %}\n',
  });
  const lines = (args: string[], env: Record<string, string> = {}) => runCli([...args, '--project-dir', dir], { env }).stdout.split('\n');

  it('prints each call once, as it is (no timestamp), on a run and in run-operation', () => {
    const out = lines(['run']);
    expect(out.filter((l) => l === 'hello from m')).toHaveLength(1);
    expect(out).toContain("{'a': 1}");
    expect(lines(['run-operation', 'op'])).toContain('from an operation');
  });

  it('prints under --quiet and in the JSON log format too', () => {
    expect(lines(['--quiet', 'run'])).toContain('hello from m');
    expect(lines(['--log-format', 'json', 'run'])).toContain('hello from m');
  });

  it('--no-print and DBT_PRINT=false silence it; --print wins over the variable', () => {
    expect(lines(['run', '--no-print'])).not.toContain('hello from m');
    expect(lines(['run'], { DBT_PRINT: 'false' })).not.toContain('hello from m');
    expect(lines(['--print', 'run'], { DBT_PRINT: 'false' })).toContain('hello from m');
  });
});

import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * run-operation of an installed package's macro, as dbt's macro context runs it: var() sees the
 * macro's package's vars (its project file's, the root's scoped to the package over them, --vars over
 * all), and the macro calls a sibling of its package without the package prefix
 * (dbt_project_evaluator's get_node_values calls wrap_string_with_quotes so).
 */
const FILES = {
  'packages.yml': 'packages:\n  - local: pkg\n',
  'pkg/dbt_project.yml': "name: pkg\nversion: '1.0'\nvars:\n  greeting: hello\n  punctuation: '.'\n",
  'pkg/macros/record.sql': `{% macro quoted(text) %}{{ return("'" ~ text ~ "'") }}{% endmacro %}
{% macro record_greeting(who='world') %}
  {% do run_query("create table greetings as select " ~ quoted(var('greeting') ~ ', ' ~ who ~ var('punctuation')) ~ " as line") %}
{% endmacro %}
`,
};

describeEachEngine('run-operation of a package macro', (engine) => {
  it("sees the package's vars and calls its sibling macros unqualified", () => {
    const p = conformanceProject(FILES, 'root', { engine });
    expect(p.dbt(['deps']).code).toBe(0);
    const op = p.dbt(['run-operation', 'pkg.record_greeting', '--args', '{who: pkg}']);
    expect(op.code, op.stdout + op.stderr).toBe(0);
    expect(p.rows('greetings')).toEqual([{ line: 'hello, pkg.' }]);
  });

  it("takes the root project's vars scoped to the package over the package's, and --vars over both (unqualified name too)", () => {
    const p = conformanceProject({ ...FILES, 'dbt_project.yml': "name: root\nversion: '1.0'\nprofile: default\nvars:\n  pkg:\n    greeting: hi\n" }, 'root', { engine });
    expect(p.dbt(['deps']).code).toBe(0);
    const op = p.dbt(['run-operation', 'record_greeting', '--vars', "{punctuation: '!'}"]);
    expect(op.code, op.stdout + op.stderr).toBe(0);
    expect(p.rows('greetings')).toEqual([{ line: 'hi, world!' }]);
  });
});

import { describe, expect, it } from 'vitest';
import { runOperation } from '../../../../src/api/run-operation.js';
import { compile } from '../../../../src/api/compile.js';
import { ProjectError } from '../../../../src/errors/project-error.js';
import { writeProject } from '../../../support/example-project.js';

/** dbt's set/zip and their strict forms (dbt-core tests/functional/context_methods/test_builtin_functions.py). */
describe('set, set_strict, zip, zip_strict', () => {
  const MACROS = `{% macro show_all() %}
{{ log("set: " ~ set([1, 2, 2, 3, 'foo', False]), info=True) }}
{{ log("set_strict: " ~ set_strict([1, 2, 2, 3, 'foo', False]), info=True) }}
{{ log("zip: " ~ (zip([1, 2], ['foo', 'bar']) | list), info=True) }}
{{ log("zip_strict: " ~ (zip_strict([1, 2], ['foo', 'bar']) | list), info=True) }}
{{ log("set of a number: " ~ set(1) ~ " / " ~ set(1, default='d'), info=True) }}
{{ log("zip of a number: " ~ zip(1, [2]) ~ " / " ~ zip(1, [2], default='d'), info=True) }}
{% endmacro %}
`;

  it('give the same values; the lenient forms fall back to their default on a value that cannot be iterated', () => {
    const dir = writeProject({ 'project.yml': 'name: shop\n', 'macros/m.sql': MACROS });
    const lines: string[] = [];
    runOperation({ projectDir: dir, macro: 'show_all', log: (m) => lines.push(m) });
    expect(lines).toEqual([
      "set: {1, 2, 3, 'foo', False}",
      "set_strict: {1, 2, 3, 'foo', False}",
      "zip: [(1, 'foo'), (2, 'bar')]",
      "zip_strict: [(1, 'foo'), (2, 'bar')]",
      'set of a number: None / d',
      'zip of a number: None / d',
    ]);
  });

  it.each([
    ['set_strict(1)', "'int' object is not iterable"],
    ['zip_strict([1], none)', "'NoneType' object is not iterable"],
  ])('%s is a compilation error with Python\'s message and the line', (call, message) => {
    const dir = writeProject({ 'project.yml': 'name: shop\n', 'models/raise.sql': `-- strict\n{% set x = ${call} %}\nselect 1 as a\n` });
    let error: unknown;
    try {
      compile({ projectDir: dir, writeArtifacts: false });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ProjectError);
    expect((error as ProjectError).format()).toContain(`models/raise.sql:2`);
    expect((error as ProjectError).message).toContain(message);
  });
});

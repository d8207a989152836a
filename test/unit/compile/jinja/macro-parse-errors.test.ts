/**
 * A malformed macro file fails with Jinja's wording at file:line:col, never
 * with a bare JavaScript SyntaxError (parse-errors.ts, trailing-commas.ts,
 * template-error.ts).
 */
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../../../src/compile/jinja-environment.js';
import { ProjectError } from '../../../../src/errors/project-error.js';
import type { MacroFile } from '../../../../src/project/project.js';

function loadError(source: string): { message: string; line?: number; column?: number } {
  try {
    new JinjaEnvironment([{ path: 'macros/bad.sql', name: 'bad', source } as MacroFile], { simple: false });
  } catch (err) {
    expect(err).toBeInstanceOf(ProjectError);
    const e = err as ProjectError;
    expect(e.location.file).toBe('macros/bad.sql');
    return { message: e.message, line: e.location.line, column: e.location.column };
  }
  throw new Error('the macro file loaded');
}

describe('parse errors in macro files', () => {
  it.each([
    ['an unclosed if', '{% macro m() %}\n{% if x %}\nselect 1\n', "Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.", 4],
    ['an unclosed macro', '{% macro m() %}\nselect 1\n', "Unexpected end of template. Jinja was looking for the following tags: 'endmacro'. The innermost block that needs to be closed is 'macro'.", 3],
    ['an end tag of the wrong block', '{% macro m() %}\n{% if x %}\n{% endmacro %}', "Encountered unknown tag 'endmacro'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.", 3],
    ['an unknown tag', '{% macro m() %}\n  {% foo %}\n{% endmacro %}', "Encountered unknown tag 'foo'. Jinja was looking for the following tags: 'endmacro'. The innermost block that needs to be closed is 'macro'.", 2],
    ['an operator without its operand', '{% macro m() %}\n  {{ a + }}\n{% endmacro %}', 'unexpected token: }}', 2],
    ['a list comprehension (Python, not Jinja)', '{% macro m() %}\n  {{ [x for x in y] }}\n{% endmacro %}', "expected token ',', got 'for'", 2],
    ['an unterminated string', "{% macro m(a,\n  b) %}{{ 'never closed }}{% endmacro %}", 'unexpected char "\'"', 2],
    ['a positional argument after a keyword argument', "{% macro m() %}\n{{ f(a=1, 2) }}{% endmacro %}", 'invalid syntax for function call expression', 2],
    ['a parameter without default after one with', '{% macro m(a=1, b) %}{% endmacro %}', 'non-default argument follows default argument', 1],
    ['an empty subscript', '{% macro m() %}\n\n{{ x[] }}{% endmacro %}', "expected an expression, got ']'", 3],
    ['an invalid regex literal', '{% macro m() %}{{ r/[/.test(x) }}{% endmacro %}', 'invalid regular expression r/[/', 1],
    ['a macro named by a number', '{% macro 1() %}{% endmacro %}', "expected token 'name', got '1'", 1],
  ])('%s: Jinja\'s message at file:line:col', (_what, source, message, line) => {
    const error = loadError(source);
    expect(error.message).toContain(message);
    expect(error.message).not.toMatch(/SyntaxError|TypeError|undefined/);
    expect(error.line).toBe(line);
    expect(error.column).toBeGreaterThan(0);
  });
});

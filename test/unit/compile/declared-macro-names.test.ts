import { describe, expect, it } from 'vitest';
import { declaredMacroNames } from '../../../src/compile/declared-macro-names.js';

describe('declaredMacroNames: the top-level macros of a file, read without compiling it', () => {
  it('finds macros and tests (as test_<name>), with whitespace control and private names', () => {
    const source = `
{%- macro star(from, relation_alias=False) -%}x{%- endmacro %}
{% macro _helper() %}{% endmacro %}
{% test expression_is_true(model, expression) %}select 1{% endtest %}`;
    expect(declaredMacroNames(source)).toEqual(['star', '_helper', 'test_expression_is_true']);
  });

  it('skips macros inside comments and raw blocks, and a macro defined inside another (local to it)', () => {
    const source = `{# {% macro commented() %}{% endmacro %} #}
{% raw %}{% macro raw_one() %}{% endmacro %}{% endraw %}
{% macro outer() %}{% macro inner() %}{% endmacro %}{{ inner() }}{% endmacro %}`;
    expect(declaredMacroNames(source)).toEqual(['outer']);
  });

  it('gives up (the file is compiled at once) on a materialization block or unbalanced tags', () => {
    expect(declaredMacroNames('{% materialization my_mat, default %}{% endmaterialization %}')).toBeUndefined();
    expect(declaredMacroNames('{% macro a() %}')).toBeUndefined();
    expect(declaredMacroNames('{% endmacro %}')).toBeUndefined();
  });
});

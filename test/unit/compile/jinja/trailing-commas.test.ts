/**
 * Trailing commas parse as Jinja parses them (Jinja's parse_call_args, parse_list and parse_dict
 * accept one comma before the closer; parse_signature, a macro's parameter list, does not), on the
 * fast path (simple-template.ts) and through nunjucks (trailing-commas.ts), with the same output.
 */
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../../../src/compile/jinja-environment.js';
import { parseSimpleTemplate } from '../../../../src/compile/jinja/simple-template.js';
import type { MacroFile } from '../../../../src/project/project.js';
import { stubState } from '../../../support/stub-render-state.js';

const MACROS = {
  path: 'macros/m.sql',
  name: 'm',
  source: "{% macro cents(column, scale=100) -%} cast({{ column }} * {{ scale }} as integer) {%- endmacro %}",
} as MacroFile;

const fast = new JinjaEnvironment([MACROS]);
const slow = new JinjaEnvironment([MACROS], { simple: false });

function renderBoth(source: string): { output: string; refs: string[]; config: unknown } {
  const outcomes = [fast, slow].map((env) => {
    const state = stubState(false);
    const output = env.render('models/m.sql', source, state);
    return { output, refs: state.refs, config: state.captured.config };
  });
  expect(outcomes[0]).toEqual(outcomes[1]);
  return outcomes[0]!;
}

describe('trailing commas', () => {
  it('in config(), ref(), source() and a macro call: on the fast path, and the same through nunjucks', () => {
    const source = "{{ config(materialized='ephemeral',) }}{{ config(tags=['a', 'b',], alias='x',) }}select {{ cents('amount',) }}, {{ cents('fee', scale=10,) }} from {{ ref('orders',) }} join {{ source('shop', 'items',) }}";
    expect(parseSimpleTemplate(source)).not.toBeNull();
    const { output, refs, config } = renderBoth(source);
    expect(output).toBe('select cast(amount * 100 as integer), cast(fee * 10 as integer) from "main"."orders" join "main"."items"');
    expect(refs).toEqual(['orders']);
    expect(config).toEqual({ materialized: 'ephemeral', tags: ['a', 'b'], alias: 'x' });
  });

  it('in list and dict literals, tuples, filters and nested calls (nunjucks)', () => {
    expect(renderBoth("{{ [1, 2,] | length }}|{% for x in ['a', 'b',] %}{{ x }}{% endfor %}").output).toBe('2|ab');
    expect(renderBoth("{% set d = {'a': 1, 'b': 2,} %}{{ d.a }}{{ d['b'] }}{{ d | length }}").output).toBe('122');
    expect(renderBoth("{{ (1,) | length }}|{{ ('x', 'y',) | join('-',) }}|{{ 'b' in ('a', 'b',) }}|{{ (3) + 1 }}").output).toBe('1|x-y|True|4');
    expect(renderBoth("{{ cents(cents('a',),) }}|{{ [[1,], {'k': [2,],},] | length }}").output).toBe('cast(cast(a * 100 as integer) * 100 as integer)|2');
    expect(renderBoth("{% macro pair(a, b=2) %}{{ a }}{{ b }}{% endmacro %}{{ pair(1,) }}{{ pair(1, b=3,) }}").output).toBe('1213');
  });

  it('a lone comma, two commas, and a trailing comma in a macro definition stay errors, as in Jinja', () => {
    for (const bad of ['{{ ref(,) }}', "{{ ref('a',,) }}", '{{ [,] }}', '{{ {,} }}', "{{ config(materialized='view',,) }}", '{% macro m2(a,) %}{% endmacro %}']) {
      expect(parseSimpleTemplate(bad), bad).toBeNull();
      expect(() => fast.render('models/m.sql', bad, stubState(false)), bad).toThrow();
      expect(() => slow.render('models/m.sql', bad, stubState(false)), bad).toThrow();
    }
  });
});

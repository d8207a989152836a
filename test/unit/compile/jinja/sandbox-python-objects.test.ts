/**
 * The objects the Python-compatibility layer hands to templates (loop and
 * recursive loop, varargs/kwargs, groupby tuples, cycler/joiner, itertools,
 * pytz zones and aware datetimes) stay behind the template sandbox: no
 * template reaches constructor, __proto__, prototype or a function's
 * call/apply/bind through them, and a spread dict cannot pollute a prototype.
 */
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../../../src/compile/jinja-environment.js';
import { stubState } from '../../../support/stub-render-state.js';

const env = new JinjaEnvironment([], { simple: false });

function outcome(source: string): string {
  try {
    return `rendered: ${env.render('models/m.sql', source, stubState(false))}`;
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

const REFUSED = /^error: access to '[^']+' is not allowed in templates/;

describe('the sandbox over the Python-compatible objects', () => {
  it.each([
    ['loop', '{% for x in [1] %}{{ loop.constructor }}{% endfor %}'],
    ['loop (prototype)', '{% for x in [1] %}{{ loop.__proto__ }}{% endfor %}'],
    ['loop.cycle', "{% for x in [1] %}{{ loop.cycle.constructor('return 1') }}{% endfor %}"],
    ['a recursive loop', '{% for x in [1] recursive %}{{ loop.constructor }}{% endfor %}'],
    ['a recursive loop (call)', '{% for x in [1] recursive %}{{ loop.call }}{% endfor %}'],
    ['a recursive loop (bind)', '{% for x in [1] recursive %}{{ loop.bind }}{% endfor %}'],
    ['varargs', '{% macro m() %}{{ varargs.constructor }}{% endmacro %}{{ m(1) }}'],
    ['kwargs', '{% macro m() %}{{ kwargs.__proto__ }}{% endmacro %}{{ m(a=1) }}'],
    ['a groupby tuple', "{% for g in [{'a': 1}] | groupby('a') %}{{ g.constructor }}{% endfor %}"],
    ['cycler', "{{ cycler(1, 2).constructor }}"],
    ['joiner', "{{ joiner(',').constructor }}"],
    ['itertools', '{{ modules.itertools.chain.constructor }}'],
    ['itertools (from_iterable)', '{{ modules.itertools.chain.from_iterable.constructor }}'],
    ['itertools (endless count)', '{{ modules.itertools.count().constructor }}'],
    ['pytz', "{{ modules.pytz.timezone('UTC').constructor }}"],
    ['pytz utc', '{{ modules.pytz.utc.__class__ }}'],
    ['an aware datetime', "{{ modules.pytz.utc.localize(modules.datetime.datetime(2024, 1, 1)).constructor }}"],
    ['an aware datetime (tz)', "{{ modules.pytz.utc.localize(modules.datetime.datetime(2024, 1, 1)).tz.constructor }}"],
    ['a set', '{{ set([1]).constructor }}'],
    ['dict()', '{{ dict(a=1).constructor }}'],
  ])('%s: refused', (_what, source) => {
    expect(outcome(source)).toMatch(REFUSED);
  });

  it("a spread dict's keys stay its own items: **{'__proto__': ...} pollutes no prototype", () => {
    const out = outcome("{% macro m() %}{{ kwargs | length }} {{ kwargs['__proto__'].polluted }}{% endmacro %}{{ m(**{'__proto__': {'polluted': 1}, 'constructor': 2}) }} {{ {}.polluted }}");
    expect(out).toBe('rendered: 2 1 ');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an endless itertools iterable stops at the sandbox limit instead of hanging', () => {
    expect(outcome('{{ modules.itertools.count() | list | length }}')).toMatch(/endless: the template sandbox stops it after/);
    expect(outcome('{{ modules.itertools.islice(modules.itertools.cycle([1, 2]), 5) | list }}')).toBe('rendered: [1, 2, 1, 2, 1]');
  });
});

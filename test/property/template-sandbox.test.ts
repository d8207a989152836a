/**
 * The template sandbox (src/compile/jinja/sandbox-policy.ts, SECURITY.md):
 * every known shape of reaching JavaScript from a template fails with the
 * same clear error on both render paths (nunjucks and the simple-template
 * fast path), and none of them runs the code it smuggles. Shapes are also
 * combined at random with the ways a template can pass a value around
 * ({% set %} aliases, macro arguments, call blocks, filters, lists, dicts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../src/compile/jinja-environment.js';
import { ProjectError } from '../../src/errors/project-error.js';
import type { MacroFile } from '../../src/project/project.js';
import { stubState } from '../support/stub-render-state.js';

const MARK = '__mini_dbt_sandbox_escaped';
/** What each escape would run: set a global the test then looks for. */
const CODE = `'globalThis.${MARK} = 1; return 1'`;
const REFUSED = /access to '[^']+' is not allowed in templates/;

/** Expressions that, unsandboxed, evaluate to JavaScript's Function constructor (or reach it in one more step). */
const FUNCTION_CONSTRUCTORS: readonly string[] = [
  "''.constructor.constructor",
  'range.constructor',
  'cycler.constructor',
  'joiner.constructor',
  'ref.constructor',
  'var.constructor',
  'source.constructor',
  'config.constructor',
  'is_incremental.constructor',
  'this.constructor.constructor',
  'modules.datetime.constructor',
  'exceptions.raise_compiler_error.constructor',
  '(1).constructor.constructor',
  '[].constructor.constructor',
  '{}.constructor.constructor',
  "''['constructor']['constructor']",
  "range['con' ~ 'structor']",
  "range[['cons', 'tructor'] | join('')]",
  "range['constructor'.lower()]",
  "''.__proto__.constructor.constructor",
  "(''|attr('constructor'))|attr('constructor')",
  "([range]|map(attribute='constructor')|first)",
  "([{'f': range}]|map(attribute='f.constructor')|first)",
  "([range]|selectattr('constructor')|first).constructor",
  "({}.get('constructor')).getOwnPropertyDescriptor(range.__proto__, 'constructor').value",
  "constructor.constructor",
  "tojson.bind(none).constructor",
  'namespace().constructor.constructor',
  'fromjson(\'{"a": 1}\').constructor.constructor',
  'zip.call.constructor',
];

/** Whole templates that reach JavaScript another way. */
const TEMPLATES: readonly string[] = [
  ...FUNCTION_CONSTRUCTORS.map((expr) => `select {{ (${expr})(${CODE})() }}`),
  `{% set c = 'constructor' %}select {{ range[c](${CODE})() }}`,
  `{% set f = range.constructor %}select {{ f(${CODE})() }}`,
  `{% macro call_it(fn) %}{{ fn.constructor(${CODE})() }}{% endmacro %}select {{ call_it(range) }}`,
  `{% macro outer() %}{{ caller.constructor(${CODE})() }}{% endmacro %}select {% call outer() %}x{% endcall %}`,
  `{% for x in [1] %}{{ loop.constructor.constructor(${CODE})() }}{% endfor %}`,
  `{{ range.call(none, 3) }}`,
  `{{ range.apply(none, [3]) }}`,
  `{{ (range.bind(none))(3) }}`,
  `{{ cycler(1, 2).__proto__ }}`,
  `{{ this.__class__ }}`,
  `{% set ns = namespace() %}{% set ns.__proto__ = range %}{{ ns.constructor(${CODE})() }}`,
  `{% set d = {'__proto__': range} %}{{ d.constructor(${CODE})() }}`,
  `{{ {}.get.constructor(${CODE})() }}`,
  `{{ {}.items.call({}) }}`,
  `{{ __proto__ }}`,
  `{{ constructor('x') }}`,
];

const MACROS: MacroFile = {
  path: 'macros/m.sql',
  name: 'm',
  source: "{% macro apply(f) %}{{ f(1) }}{% endmacro %}{% macro pass_through(x) %}{{ return(x) }}{% endmacro %}",
} as MacroFile;

function outcome(env: JinjaEnvironment, source: string): string {
  try {
    return `rendered: ${env.render('models/m.sql', source, stubState(false))}`;
  } catch (err) {
    return err instanceof ProjectError ? err.format() : `not a ProjectError: ${String(err)}`;
  }
}

const fast = new JinjaEnvironment([MACROS]);
const slow = new JinjaEnvironment([MACROS], { simple: false });

describe('the template sandbox', () => {
  it(`refuses ${TEMPLATES.length} known escape shapes with the same clear error at file:line, and runs none of them`, () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(40);
    for (const source of TEMPLATES) {
      const seen = outcome(slow, source);
      expect(seen, source).toMatch(new RegExp(`^models/m\\.sql:\\d+(:\\d+)?: ${REFUSED.source}$`));
      expect(outcome(fast, source), source).toBe(seen);
      expect((globalThis as Record<string, unknown>)[MARK], source).toBeUndefined();
    }
  });

  it('the simple-template fast path refuses the names every object inherits, as nunjucks does', () => {
    for (const source of ['select {{ constructor }}', "select {{ constructor('x') }}", 'select {{ __proto__ }}', "{{ ref('a') }} {{ __defineGetter__('x', ref) }}"]) {
      expect(outcome(fast, source), source).toBe(outcome(slow, source));
      expect(outcome(fast, source)).toMatch(REFUSED);
    }
    // Inherited names that are harmless are simply not variables (undefined), as an unknown name is.
    expect(outcome(fast, 'select {{ toString }}{{ valueOf }}.')).toBe('rendered: select .');
    expect(outcome(slow, 'select {{ toString }}{{ valueOf }}.')).toBe('rendered: select .');
  });

  it('still reads what a template legitimately holds: dict items named like internals, Python methods, namespaces', () => {
    expect(outcome(slow, "{% set d = {'constructor': 1, '_id': 2, '__proto__': 3} %}{{ d.constructor }}{{ d._id }}{{ d['__proto__'] }}")).toBe('rendered: 123');
    expect(outcome(slow, "{{ 'a_b'.upper() }} {{ {'k': 1}.get('k') }} {{ {'k': 1}.get('constructor') }} {{ [3, 1]|sort|join(',') }}")).toBe('rendered: A_B 1 None 1,3');
    // dict.get/pop/setdefault read items only (nunjucks' versions would hand back inherited members such as Object).
    expect(outcome(slow, "{% set d = {'k': 1} %}{{ d.get('constructor', 'none') }} {{ d.pop('toString', 'no') }} {{ d.setdefault('constructor', 7) }} {{ d.pop('k') }} {{ d|length }}")).toBe('rendered: none no 7 1 1');
    expect(outcome(slow, "{% set ns = namespace(n=0) %}{% for i in range(3) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}")).toBe('rendered: 3');
    expect(outcome(slow, "{% set d = {'a': {'b': 5} } %}{{ d|attr('a')|attr('b') }}")).toBe('rendered: 5');
    expect(outcome(slow, "{{ apply(pass_through) }}")).toBe('rendered: 1');
  });

  it('names looked up by name (adapter.dispatch) find only macros, never what every object inherits', () => {
    const seen = outcome(slow, `{{ adapter.dispatch('constructor')(${CODE}) }}`);
    expect(seen).toMatch(/In dispatch: No macro named 'constructor' found/);
    expect((globalThis as Record<string, unknown>)[MARK]).toBeUndefined();
  });

  it('a namespace is the only thing {% set x.attr %} may change (as in Jinja)', () => {
    expect(outcome(slow, "{% set this.name = 'other' %}{{ this }}")).toMatch(/cannot set attribute 'name': the target is not a namespace\(\)/);
    expect(outcome(slow, "{% set d = {} %}{% set d.x = 1 %}")).toMatch(/not a namespace\(\)/);
  });

  it('escape shapes delivered at random through aliases, macros, lists and dicts are all refused', () => {
    const deliver = fc.constantFrom(
      (e: string) => `{% set v = ${e} %}{{ v(${CODE})() }}`,
      (e: string) => `{{ [${e}][0](${CODE})() }}`,
      (e: string) => `{{ {'k': ${e}}.k(${CODE})() }}`,
      (e: string) => `{{ {'k': ${e}}['k'](${CODE})() }}`,
      (e: string) => `{% macro m2(f) %}{{ f(${CODE})() }}{% endmacro %}{{ m2(${e}) }}`,
      (e: string) => `{{ pass_through(${e})(${CODE})() }}`,
      (e: string) => `{% for f in [${e}] %}{{ f(${CODE})() }}{% endfor %}`,
      (e: string) => `{% if true %}{{ (${e} if true else none)(${CODE})() }}{% endif %}`,
    );
    fc.assert(
      fc.property(fc.constantFrom(...FUNCTION_CONSTRUCTORS), deliver, (expr, wrap) => {
        const source = wrap(expr);
        const seen = outcome(slow, source);
        expect(seen, source).toMatch(REFUSED);
        expect(outcome(fast, source)).toBe(seen);
        expect((globalThis as Record<string, unknown>)[MARK]).toBeUndefined();
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });
});

describe('resource limits', () => {
  it('range() past 100,000 items is a template error, not an out-of-memory abort', () => {
    expect(outcome(slow, '{{ range(100000)|length }}')).toBe('rendered: 100000');
    expect(outcome(slow, 'select 1\n{{ range(100001)|length }}')).toMatch(/^models\/m\.sql:2:\d+: range too big: 100001 items; the template sandbox allows at most 100000/);
    expect(outcome(slow, '{{ range(10 ** 12)|length }}')).toMatch(/range too big/);
    expect(outcome(slow, '{{ range(5, 0, -2)|join(",") }}')).toBe('rendered: 5,3,1');
  });

  it('text and lists multiplied past the limits are refused before they are built', () => {
    expect(outcome(slow, "{{ ('ab' * 3) }}")).toBe('rendered: ababab');
    expect(outcome(slow, "{{ 'x' * 1000000000000 }}")).toMatch(/'...' \* 1000000000000 would make 1000000000000 characters; the template sandbox allows at most 10000000/);
    expect(outcome(slow, '{{ ([1, 2] * 100000000)|length }}')).toMatch(/would make 200000000 items/);
    expect(outcome(slow, "{{ 'x'.zfill(10000000000) }}")).toMatch(/zfill\(\) would make 10000000000 characters/);
  });

  it('a macro that recurses without end stops with a clear error naming the depth', () => {
    const env = new JinjaEnvironment([{ path: 'macros/r.sql', name: 'r', source: '{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}{% macro deep(n) %}{% if n > 0 %}{{ deep(n - 1) }}{% else %}bottom{% endif %}{% endmacro %}' } as MacroFile], { simple: false });
    expect(outcome(env, 'select\n{{ down(0) }}')).toMatch(/^models\/m\.sql:2:\d+: maximum macro recursion depth exceeded: macros called macros 250 deep/);
    // A deep but finite chain well inside the limit still renders.
    expect(outcome(env, '{{ deep(200) }}')).toBe('rendered: bottom');
  });

  it('a syntax error deep inside nested brackets fails at once (Jinja compat would re-parse it 2^depth times), and slices still parse', () => {
    // 30 levels: 2^30 re-parses without the bound, so this test would time out rather than pass.
    expect(outcome(slow, `{{ ${'['.repeat(30)}1 2${']'.repeat(30)} }}`)).toMatch(/template syntax error: expected token ',', got '2'/);
    expect(outcome(slow, `{{ ${'['.repeat(2000)}${']'.repeat(2000)} }}`)).toMatch(/maximum recursion depth exceeded/);
    expect(outcome(slow, "{{ [1, 2, 3, 4][1:3]|join(',') }} {{ 'abcdef'[::2] }} {{ [[1, 2], [3]][0][-1:]|first }}")).toBe('rendered: 2,3 ace 2');
  });
});

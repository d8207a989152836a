/**
 * Templates that differ only in their literals share one compiled function
 * (src/compile/jinja/shared-template-code.ts). Random template skeletons
 * (set, for with loop.last, dicts, filters, inline if, macros defined in the
 * template, config() with expressions, failing calls, whitespace control,
 * comments, raw blocks) are filled with different literals, texts and line
 * breaks, and every variant is rendered by two long-lived environments: one
 * sharing compiled code, one compiling every template to code of its own (as
 * nunjucks does). Output, errors (with their line and column) and captures
 * must be equal, and the sharing environment must have reused code.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../src/compile/jinja-environment.js';
import type { MacroFile } from '../../src/project/project.js';
import { renderOutcome } from '../support/render-outcome.js';
import { stubState } from '../support/stub-render-state.js';
import { loadProject } from '../../src/project/load-project.js';
import { writeRealisticProject } from '../../bench/realistic-project.js';

const MACROS: MacroFile = {
  path: 'macros/m.sql',
  name: 'm',
  source: [
    "{% macro cents(column, factor=100) -%} cast(round({{ column }} * {{ factor }}) as integer) {%- endmacro %}",
    "{% macro tagged(name, prefix=none) -%} '{{ prefix or var('region') }}:{{ name | upper }}' {%- endmacro %}",
    "{% macro boom(message) %}{{ exceptions.raise_compiler_error(message) }}{% endmacro %}",
  ].join('\n'),
} as MacroFile;

// Slots a skeleton leaves for literals: §S a string, §N a number, §T text between tags, §W whitespace or nothing.
// Mostly strings a skeleton masks, some it keeps (empty, escaped: those templates are parsed as themselves).
const STRINGS = ["'a'", "'orders'", '"event_date"', "'}}'", "'%}'", "'{{ x }}'", "'__proto__'", "'constructor'", "'é \u2028 x'", "'x\"y'", "'line\nbreak'", "'customers'", "'2024-01-01'", "''", "'it\\'s'", "'a\\nb'", '"tab\\there"', "'back\\\\slash'"];
const NUMBERS = ['0', '1', '3', '12', '1.5', '007', '100'];
const TEXTS = ['select 1', '\n', '  ', 'from x\n\n', '"quoted"', 'back\\slash', '\u2028', 'it\'s', '\n  where a = 1\n', '-- note\n', ' a #} b ', '{ x }', '}}', '%}', '\r\n', 'é\n\n\nz'];
const SPACES = ['', ' ', '\n', '\n\n  ', '\t'];

const PIECES: readonly string[] = [
  '§T',
  '{{ §S }}',
  '{{ §N + §N }}',
  '{{ §S ~ §N }}',
  '{{- §S | upper -}}',
  "{{ [§S, §N] | join(§S) }}",
  '{{ §S if §N > §N else §S }}',
  '{{ {§S: §N}[§S] }}',
  '{% set x = §S %}{{ x }}§W{{ x ~ §S }}',
  '{%- for i in [§N, §N, §S] %}{{ i }}{{ §S if not loop.last }}{% endfor -%}',
  '{% macro m(a, b=§S) %}[{{ a }}|{{ b }}]{% endmacro %}{{ m(§N) }}§W{{ m(§S, b=§N) }}',
  '{{ ref(§S) }}',
  '{{ var(§S, §N) }}',
  "{{ config(materialized=§S if var('flag') else §S, tags=[§S, §S ~ §N]) }}",
  '{{ missing(§S) }}',
  '{{ §S.upper() }}',
  '{{ §S.split(§S) }}',
  '{{ boom(§S) }}',
  '{{ cents(§S, factor=§N) }}{{ tagged(§S) }}',
  '{% if §N %}§T{% elif §S %}§T{% else %}§T{% endif %}',
  '{%- if is_incremental() -%}§T{{ this }}{%- endif %}',
  '{% set d = {§S: §N, §S: §S} %}{% for k, v in d | dictsort %}{{ k }}={{ v }};{% endfor %}',
  '{{ §S[§N] }}{{ §S[§N:§N] }}',
  '{# §T #}§W',
  '{% raw %}§T{{ x }}{% endraw %}',
  '{% raw %}{{ §S }}§W{% endraw %}',
  '{{ {§S: {§S: §N}} }}§W{{ {§S: §S}.keys() | list }}',
  '{%- set block -%}§T{{ §S }}§T{%- endset -%}{{ block | trim }}',
  "{{ §S | regex_replace(r/[aeiou]/, §S) if false else §S }}",
  '{#- §T -#}§T{#§T#}',
  '{{ var(§S).values() if false else §S }}',
  '§T{{ undefined_name.attribute(§S) }}',
  '{{ §S ~ missing_function(§N) }}',
  '{{ nothing.at.all }}',
  '{{ §N // 0 }}',
  '{{ range(§N) | list }}',
  '{% set ns = namespace(total=§N) %}{% for i in [§N, §N] %}{% set ns.total = ns.total + i %}{% endfor %}{{ ns.total }}',
];

const pick = (pool: readonly string[], stream: readonly number[], at: { k: number }): string => pool[stream[at.k++ % stream.length]! % pool.length]!;

/** The skeleton with its slots filled: strings and texts from `varying` (a template's own), numbers and whitespace from `fixed` (its family's). */
function fill(skeleton: string, fixed: readonly number[], varying: readonly number[]): string {
  const at = { k: 0 };
  const own = { k: 0 };
  return skeleton.replace(/§([SNTW])/g, (_m, slot: string) =>
    slot === 'S' ? pick(STRINGS, varying, own) : slot === 'T' ? pick(TEXTS, varying, own) : pick(slot === 'N' ? NUMBERS : SPACES, fixed, at));
}

const skeleton = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...SPACES)), { minLength: 1, maxLength: 6 }).map((pieces) => pieces.map(([p, w]) => p + w).join(''));
const stream = fc.array(fc.nat(1000), { minLength: 1, maxLength: 40 });

describe('templates sharing compiled code render as nunjucks renders them', () => {
  const shared = new JinjaEnvironment([MACROS], { simple: false });
  const own = new JinjaEnvironment([MACROS], { simple: false, sharedCode: false });

  it('on random skeletons filled with different literals, texts and line breaks (same output, same error and position, same captures)', () => {
    let n = 0;
    fc.assert(
      fc.property(skeleton, stream, fc.array(stream, { minLength: 2, maxLength: 4 }), fc.boolean(), (source, fixed, streams, incremental) => {
        for (const values of streams) {
          const path = `models/t${n++}.sql`;
          const filled = fill(source, fixed, values);
          expect(renderOutcome(shared, path, filled, incremental), filled).toEqual(renderOutcome(own, path, filled, incremental));
        }
      }),
      { seed: 20261204, numRuns: 1500 },
    );
    // Variants of one skeleton must have reused its code, not only rendered alike.
    expect(shared.sharedCode.compiled).toBeGreaterThan(2000);
    expect(shared.sharedCode.distinct).toBeLessThan(shared.sharedCode.compiled * 0.7);
    const { compiled, skeletonHits, shapeHits } = shared.sharedCode;
    expect(skeletonHits).toBeGreaterThan(compiled * 0.05);
    expect(shapeHits).toBeGreaterThan(compiled * 0.02);
  });

  it('reports a failure at its own template\'s line, not at that of the template whose code it reuses', () => {
    const env = new JinjaEnvironment([MACROS], { simple: false });
    // The text names the call too, on line 1: the line must be the one nunjucks recorded, not a search's.
    const a = renderOutcome(env, 'models/a.sql', "-- missing() below\n{{ missing('x') }}", false);
    const b = renderOutcome(env, 'models/b.sql', "-- missing() below, twice\n\n\n    {{ missing('yy') }}", false);
    expect(env.sharedCode.distinct).toBe(1);
    expect(env.sharedCode.compiled).toBe(2);
    expect(a.error).toMatch(/^models\/a\.sql:2: 'missing' is not a macro or function/);
    expect(b.error).toMatch(/^models\/b\.sql:4: 'missing' is not a macro or function/);
  });

  it('gives each template its own literals when they share code', () => {
    const env = new JinjaEnvironment([MACROS], { simple: false });
    const state = stubState(false);
    const outputs = ['orders', 'customers', 'payments'].map((name, i) => env.render(`models/m${i}.sql`, `{% set cols = ['id', '${name}_id'] %}select {{ cols | join(', ') }} from {{ ref('${name}') }}`, state));
    expect(outputs).toEqual(['select id, orders_id from "main"."orders"', 'select id, customers_id from "main"."customers"', 'select id, payments_id from "main"."payments"']);
    expect(state.refs).toEqual(['orders', 'customers', 'payments']);
    expect(env.sharedCode.distinct).toBe(1);
    expect(env.sharedCode.skeletonHits).toBe(2);
  });

  it('keeps the parameters out of a template\'s reach', () => {
    const env = new JinjaEnvironment([MACROS], { simple: false });
    expect(env.render('models/p.sql', "{{ __L }}|{{ __L is defined }}|{% set __L = 'mine' %}{{ __L }}|{{ 'kept' }}", stubState(false))).toBe('|False|mine|kept');
  });

  it('on the bench\'s realistic models (set, for, dicts, macro keywords, conditional config), which share a few skeletons', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-shared-code-'));
    try {
      writeRealisticProject(dir, 300);
      const project = loadProject(dir);
      const withShared = new JinjaEnvironment(project.macros, { simple: false, rootPackage: project.name });
      const withOwn = new JinjaEnvironment(project.macros, { simple: false, sharedCode: false, rootPackage: project.name });
      for (const model of project.models) {
        for (const incremental of [false, true]) {
          expect(renderOutcome(withShared, model.path, model.rawSql, incremental), model.path).toEqual(renderOutcome(withOwn, model.path, model.rawSql, incremental));
        }
      }
      expect(withShared.sharedCode.compiled).toBe(300);
      expect(withShared.sharedCode.skeletonHits).toBeGreaterThan(270);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops sharing when a project\'s templates are all unlike each other, and renders them the same', () => {
    const env = new JinjaEnvironment([MACROS], { simple: false });
    const own = new JinjaEnvironment([MACROS], { simple: false, sharedCode: false });
    for (let i = 0; i < 400; i++) {
      // A name of its own in every template: no two share a shape.
      const source = `{% set name_${i} = 'v${i}' %}select {{ name_${i} }} from {{ ref('t${i}') }}`;
      expect(renderOutcome(env, `models/u${i}.sql`, source, false)).toEqual(renderOutcome(own, `models/u${i}.sql`, source, false));
    }
    expect(env.sharedCode.compiled).toBe(256);
    expect(env.sharedCode.skeletonHits + env.sharedCode.shapeHits).toBe(0);
  });
});

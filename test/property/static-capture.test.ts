/**
 * Pass 1 captured without rendering (src/compile/jinja/static-capture.ts)
 * gives exactly what rendering gives: the same refs, sources, config and vars
 * read, in the same order, and where the render fails, the static path must
 * have said no (so the render's error, with its file and line, is what the
 * user sees). Compared on random templates calling builtins, inert and
 * non-inert macros, with hooks and errors, and on every fixture project's
 * capture (manifest nodes and errors), each both ways.
 */
import fc from 'fast-check';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../src/compile/jinja-environment.js';
import { captureModel, type CaptureContext } from '../../src/parse/capture-model.js';
import { captureProject } from '../../src/parse/capture-project.js';
import { loadProject } from '../../src/project/load-project.js';
import type { MacroFile, ModelFile } from '../../src/project/project.js';
import { FILE_TARGET } from '../../src/project/target.js';
import { ProjectError } from '../../src/errors/project-error.js';
import { writeGeneratedProject } from '../../bench/generated-project.js';
import { writeRealisticProject } from '../../bench/realistic-project.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ROOT = resolve(import.meta.dirname, '../..');

const MACROS: MacroFile = {
  path: 'macros/m.sql',
  name: 'm',
  source: [
    // Inert: text, parameters, this, var(), upper/lower of a parameter.
    '{% macro cents(column) -%} cast(round({{ column }} * 100) as integer) {%- endmacro %}',
    "{% macro tagged(name) -%} '{{ var('region') }}:{{ name | upper }}' {%- endmacro %}",
    "{% macro recent(column, days=3) -%} {{ column }} >= date((select max({{ column }}) from {{ this }}), '-{{ var('lookback_days') }} days') {%- endmacro %}",
    "{% macro lowered(a, b='x') %}{{ a | lower }}{{ b | upper }}{{ var('absent', 'd') }}{% endmacro %}",
    // Not inert: a block, another name, a ref, an error, an attribute.
    '{% macro looped(cols) %}{% for c in cols %}{{ c }}{% endfor %}{% endmacro %}',
    "{% macro reffing() %}{{ ref('hidden') }}{% endmacro %}",
    "{% macro boom() %}{{ exceptions.raise_compiler_error('boom') }}{% endmacro %}",
    '{% macro named(r) %}{{ r.identifier }}{% endmacro %}',
    '{% macro targeted() %}{{ target.name }}{% endmacro %}',
  ].join('\n'),
} as MacroFile;

/** A project macro replacing a builtin: calls of it are never captured statically. */
const OVERRIDE: MacroFile = { path: 'macros/o.sql', name: 'o', source: "{% macro source(a, b) %}{{ ref(a ~ '_' ~ b) }}{% endmacro %}" } as MacroFile;

function contextFor(jinja: JinjaEnvironment, staticCapture: boolean): CaptureContext {
  return {
    jinja: () => jinja,
    vars: { region: 'eu', lookback_days: 3, flag: false, list: [1, 2], dict: { a: 1 }, none_var: null },
    sourceAlias: (_s, t) => `src_${t}`,
    databasePath: 'warehouse.db',
    target: FILE_TARGET,
    projectName: 'p',
    staticCapture,
  };
}

/** captureModel's result or its error as the CLI prints it. */
function outcome(jinja: JinjaEnvironment, staticCapture: boolean, file: ModelFile, base: Record<string, unknown>): unknown {
  try {
    return { capture: JSON.parse(JSON.stringify(captureModel(file, base, contextFor(jinja, staticCapture)))) };
  } catch (err) {
    return { error: err instanceof ProjectError ? err.format() : String(err) };
  }
}

/** Two environments over the same macros (one capturing statically, one rendering), counting the static captures. */
function bothWays(macros: readonly MacroFile[]) {
  const fast = new JinjaEnvironment(macros, { rootPackage: 'p' });
  const slow = new JinjaEnvironment(macros, { rootPackage: 'p' });
  const counts = { static: 0 };
  const original = fast.captureStatically.bind(fast);
  fast.captureStatically = (path, source, sink) => {
    const done = original(path, source, sink);
    if (done) counts.static += 1;
    return done;
  };
  return {
    counts,
    compare: (name: string, source: string, base: Record<string, unknown>) => {
      const file: ModelFile = { name, path: `models/${name}.sql`, absPath: `/p/models/${name}.sql`, rawSql: source, folders: [] };
      return { fast: outcome(fast, true, file, base), slow: outcome(slow, false, file, base) };
    },
  };
}

// --- random templates -------------------------------------------------------

const trim = fc.constantFrom('', '-');
const str = fc.constantFrom("'orders'", '"events"', "'a}}b'", "''", "'pre_hook'", "'region'", "'lookback_days'", "'absent'", "'list'");
const lit = fc.oneof(str, fc.constantFrom('0', '3', '1.5', 'true', 'false', 'none'));
const call = fc.constantFrom(
  "ref('orders')", "ref('pkg', 'orders')", "ref('orders', v=2)", 'ref()', 'ref(1)', "ref('a', 'b', 'c')",
  "source('shop', 'orders')", "source('shop')", 'source(1, 2)',
  "var('region')", "var('absent')", "var('absent', 'dflt')", "var('list')", "var('dict')", "var('flag')", "var('none_var')", 'var(3)', "var(name='region')", 'var()',
  'is_incremental()', 'is_incremental(1)',
  "config(materialized='incremental')", "config(materialized='table', tags=['a', 'b'])", "config(alias='x', enabled=true)", "config(pre_hook='select 1')",
  "config(post_hook=\"insert into {{ ref('audit') }} values (1)\")", "config('x')", 'config()', "config(__proto__='x')",
  "cents('amount')", 'cents(3)', "cents('a', 'b')", "cents(column='a')", "cents('a', column='b')", 'cents()',
  "tagged('x')", 'tagged(3)', 'tagged(none)', 'tagged(false)', 'tagged(true)', "tagged(['a'])", "tagged(name='y')", "tagged(nam='y')",
  "recent('d')", "recent('d', days=5)", "recent('d', 5)", "lowered('A')", "lowered('A', b=1)", "lowered(1)", "lowered('a', 'b')",
  "looped(['a'])", 'reffing()', 'boom()', "named(ref('orders'))", 'targeted()', 'missing()', "cents(ref('orders'))", 'this()',
  "config(alias=cents('a'))", "ref(cents('a'))", "source('shop', 'x')",
);
const name = fc.constantFrom('this', 'target', 'execute', 'missing', 'is_incremental');
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    lit,
    name,
    call,
    call,
    fc.tuple(fc.constantFrom('ref', 'var', 'cents', 'config', 'tagged'), fc.array(tie('e'), { maxLength: 2 })).map(([f, args]) => `${f}(${args.join(', ')})`),
    fc.array(tie('e'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
  ),
})).e;
const text = fc.constantFrom('select 1', '\n', ' from x\n', '-- c\n', "-- depends_on: {{ ref('dep') }}\n");
const output = fc.tuple(trim, expr, trim).map(([a, e, b]) => `{{${a} ${e} ${b}}}`);
const cond = fc.tuple(fc.constantFrom('', 'not '), expr).map(([n, e]) => `${n}${e}`);
const outside = fc.constantFrom('{% set x = 1 %}', "{% for i in [1] %}{{ ref('loop') }}{% endfor %}", '{{ this.name }}', "{{ 'a' ~ 'b' }}");
const piece: fc.Arbitrary<string> = fc.letrec<{ p: string }>((tie) => ({
  p: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    output,
    output,
    outside,
    fc.tuple(cond, fc.array(tie('p'), { maxLength: 3 }), fc.option(fc.array(tie('p'), { maxLength: 2 })))
      .map(([c, body, otherwise]) => `{% if ${c} %}${body.join('')}${otherwise ? `{% else %}${otherwise.join('')}` : ''}{% endif %}`),
  ),
})).p;
const template = fc.array(piece, { maxLength: 7 }).map((pieces) => pieces.join(''));
const base = fc.constantFrom<Record<string, unknown>>({}, { materialized: 'incremental' }, { alias: 'aliased' }, { materialized: 'view', pre_hook: "select * from {{ ref('hooked') }}" });

describe('a capture without rendering gives what the render gives', () => {
  it('on random templates (same refs, sources, config, vars read, in order; the same error where the render fails)', () => {
    const { compare, counts } = bothWays([MACROS]);
    let n = 0;
    fc.assert(
      fc.property(template, base, (source, b) => {
        const { fast, slow } = compare(`t${n++}`, source, b);
        expect(fast).toEqual(slow);
      }),
      { seed: 20261204, numRuns: 3000 },
    );
    // The generator must exercise the static path, not only the fallback.
    expect(counts.static).toBeGreaterThan(500);
  });

  it('never captures statically a call of a builtin a project macro replaces', () => {
    const { compare, counts } = bothWays([MACROS, OVERRIDE]);
    const { fast, slow } = compare('o', "select * from {{ source('shop', 'orders') }} join {{ ref('x') }}", {});
    expect(fast).toEqual(slow);
    expect(fast).toEqual({ capture: { refs: ['shop_orders', 'x'], sources: [], config: {}, vars: [] } });
    expect(counts.static).toBe(0);
  });

  it('captures the generated models statically, reading the macros\' vars in order', () => {
    const { compare, counts } = bothWays([MACROS]);
    const source = "{{ config(materialized='incremental', unique_key='id', tags=['fan']) }}\nselect {{ tagged('x') }} from {{ ref('a') }}\n{% if is_incremental() %}where {{ recent('event_date') }}{% endif %}";
    const { fast, slow } = compare('g', source, {});
    expect(fast).toEqual(slow);
    expect(fast).toEqual({ capture: { refs: ['a'], sources: [], config: { materialized: 'incremental', unique_key: 'id', tags: ['fan'] }, vars: ['region', 'lookback_days'] } });
    expect(counts.static).toBe(2); // is_incremental() false, then true
  });
});

describe('every fixture project captures the same both ways', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'static-capture-'));
  const generated = writeGeneratedProject(join(scratch, 'generated'), 300).dir;
  const realistic = writeRealisticProject(join(scratch, 'realistic'), 300).dir;
  const projects = [ROOT, join(ROOT, 'test/fixtures/projects/jaffle-shop'), join(ROOT, 'test/fixtures/projects/jinja-shop'), join(ROOT, 'test/fixtures/projects/adapter-api'), generated, realistic,
    ...['trap-1-upsert-adds-tonight', 'trap-2-backfill-old-as-of', 'trap-3-insert-without-delete'].map((t) => join(ROOT, 'examples', t))];
  for (const dir of projects) {
    const label = dir === ROOT ? 'the example' : dir.startsWith(scratch) ? `bench ${dir.slice(scratch.length + 1)} (300 models)` : dir.slice(ROOT.length + 1);
    it(`manifest nodes and errors: ${label}`, () => {
      const capture = (staticCapture: boolean) => {
        try {
          const manifest = captureProject(loadProject(dir), { staticCapture });
          return { nodes: [...manifest.models.values()].map((m) => [m.uniqueId, m.refs, m.sources, m.config, m.dependsOn, m.alias, m.schema]), tests: [...manifest.tests.keys()] };
        } catch (err) {
          return { error: err instanceof ProjectError ? err.format() : String(err) };
        }
      };
      const fast = capture(true);
      expect(fast).toEqual(capture(false));
      expect('nodes' in fast && fast.nodes.length).toBeGreaterThan(0);
    });
  }
  it.sequential('cleans up', () => rmSync(scratch, { recursive: true, force: true }));
});

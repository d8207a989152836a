/**
 * The simple-template fast path renders exactly what nunjucks renders:
 * random templates (inside the subset and outside it), then every model,
 * test and macro-calling template of the example and fixture projects, each
 * rendered by two environments, one with the fast path and one without,
 * under is_incremental() false and true. Output, errors and everything the
 * render captured (refs, sources, config) must be equal.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../src/compile/jinja-environment.js';
import { parseSimpleTemplate } from '../../src/compile/jinja/simple-template.js';
import { loadProject } from '../../src/project/load-project.js';
import type { MacroFile } from '../../src/project/project.js';
import { Relation } from '../../src/compile/relation.js';
import { renderOutcome } from '../support/render-outcome.js';

const ROOT = resolve(import.meta.dirname, '../..');

const MACROS: MacroFile = {
  path: 'macros/m.sql',
  name: 'm',
  source: [
    "{% macro cents(column) -%} cast(round({{ column }} * 100) as integer) {%- endmacro %}",
    "{% macro tagged(name) -%} '{{ var('region') }}:{{ name | upper }}' {%- endmacro %}",
    "{% macro window(col, days=3) %}{{ col }} >= date('now', '-{{ days }} days') and {{ this }}{% endmacro %}",
    "{% macro boom() %}{{ exceptions.raise_compiler_error('boom') }}{% endmacro %}",
    '{% macro show(model, column_name=none) %}{{ model }}.{{ column_name }}{% endmacro %}',
  ].join('\n'),
} as MacroFile;

function bothWays(macros: readonly MacroFile[]) {
  const fast = new JinjaEnvironment(macros);
  const slow = new JinjaEnvironment(macros, { simple: false });
  return (path: string, source: string, incremental: boolean, locals?: Record<string, unknown>) => ({
    fast: renderOutcome(fast, path, source, incremental, locals),
    slow: renderOutcome(slow, path, source, incremental, locals),
  });
}

// --- random templates -------------------------------------------------------

const ws = fc.constantFrom('', ' ', '  ', '\n', ' \n\t ');
const trim = fc.constantFrom('', '-');
const str = fc.constantFrom("'amount'", '"event_date"', "'it''s'", "'a}}b'", "'%}'", "''", '"x y"');
const num = fc.constantFrom('0', '3', '12', '1.5', '007');
const lit = fc.oneof(str, num, fc.constantFrom('true', 'false', 'none'));
// Names every JavaScript object inherits are not variables (the sandbox): both paths refuse or ignore them alike.
const name = fc.constantFrom('this', 'is_incremental', 'missing', 'execute', 'target', 'lookback_days', 'True', 'None', 'not', 'constructor', 'toString', '__proto__', 'hasOwnProperty');
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    lit,
    name,
    fc.constantFrom("ref('stg_orders')", "source('shop', 'orders')", "var('region')", "var('missing', 'dflt')", "var('absent')", 'is_incremental()', "cents('amount')", "tagged('x')", "window('d', days=5)", 'boom()', 'missing()', 'this()', "constructor('x')", 'toString()', 'valueOf()', "config(alias='a')", "config(tags=['x', 'y'], enabled=true)", 'this.name', "'a' ~ 'b'", 'x | upper', '[1, 2,]'),
    // A trailing comma (Jinja accepts one after an argument or item; `f(,)` and `[,]` are errors on both paths).
    fc.tuple(fc.constantFrom('ref', 'var', 'cents', 'config'), fc.array(tie('e'), { maxLength: 2 }), fc.constantFrom('', '', ',', ' ,')).map(([f, args, comma]) => `${f}(${args.join(', ')}${comma})`),
    fc.tuple(fc.array(tie('e'), { maxLength: 3 }), fc.constantFrom('', '', ',')).map(([items, comma]) => `[${items.join(', ')}${comma}]`),
  ),
})).e;
const text = fc.constantFrom('select 1', '\n', '  ', ' from x\n', '{', '}', '}}', '%}', '#', '#}', 'a { b', '-- c\n', ' \t\n  ');
const output = fc.tuple(trim, ws, expr, ws, trim).map(([a, b, e, c, d]) => `{{${a}${b}${e}${c}${d}}}`);
const comment = fc.tuple(trim, fc.constantFrom(' note ', '', '{{ x }}', ' {% if %} '), trim).map(([a, c, b]) => `{#${a}${c}${b}#}`);
const cond = fc.tuple(fc.constantFrom('', 'not '), expr).map(([n, e]) => `${n}${e}`);
const outside = fc.constantFrom('{% set x = 1 %}{{ x }}', '{% for i in [1,2] %}{{ i }}{% endfor %}', '{{ this.name }}', '{% raw %}{{ x }}{% endraw %}', '{% endif %}', '{% else %}', '{{ }}', '{{ x', '{# open');
const piece: fc.Arbitrary<string> = fc.letrec<{ p: string }>((tie) => ({
  p: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    output,
    comment,
    outside,
    fc.tuple(trim, cond, trim, fc.array(tie('p'), { maxLength: 3 }), fc.option(fc.tuple(trim, cond, trim, fc.array(tie('p'), { maxLength: 2 }))), fc.option(fc.tuple(trim, trim, fc.array(tie('p'), { maxLength: 2 }))), trim, trim)
      .map(([a, c, b, body, elif, otherwise, e1, e2]) =>
        `{%${a} if ${c} ${b}%}${body.join('')}${elif ? `{%${elif[0]} elif ${elif[1]} ${elif[2]}%}${elif[3].join('')}` : ''}${otherwise ? `{%${otherwise[0]} else ${otherwise[1]}%}${otherwise[2].join('')}` : ''}{%${e1} endif ${e2}%}`),
  ),
})).p;
const template = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));

describe('simple templates render as nunjucks renders them', () => {
  const render = bothWays([MACROS]);

  it('on random templates, inside the subset and outside it (same output, same error, same captures)', () => {
    let simple = 0;
    fc.assert(
      fc.property(template, fc.boolean(), (source, incremental) => {
        if (parseSimpleTemplate(source)) simple += 1;
        const { fast, slow } = render(`models/t${simple}.sql`, source, incremental);
        expect(fast).toEqual(slow);
      }),
      { seed: 20261202, numRuns: 3000 },
    );
    // The generator must exercise the fast path, not only the fallback.
    expect(simple).toBeGreaterThan(300);
  });

  it('trims whitespace exactly where nunjucks does', () => {
    for (const source of ['a  \n {#- c -#} \n b', 'x {{- 1 -}} y', ' {%- if true -%} \n in \n {%- else -%} out {%- endif -%} \n z', '{{ 1 -}}{# c #}  t', '{{ 1 }}{#- c #}  t', '{#-#} x']) {
      expect(parseSimpleTemplate(source), source).not.toBeNull();
      const { fast, slow } = render('models/w.sql', source, false);
      expect(fast, source).toEqual(slow);
    }
  });
});

describe('template-local variables (how data tests are rendered)', () => {
  it('resolve before globals, as in nunjucks', () => {
    const render = bothWays([MACROS]);
    const locals = { __model: new Relation('orders', 'table'), __column_name: 'id', this: 'shadowed', none_here: undefined };
    for (const source of ['{{ show(model=__model, column_name=__column_name) }}', '{{ this }} {{ __model }} {{ none_here }} {{ missing }}', '{{ show(__model) }}', '{{ __column_name() }}']) {
      expect(parseSimpleTemplate(source), source).not.toBeNull();
      const { fast, slow } = render('tests/generic.sql', source, false, locals);
      expect(fast, source).toEqual(slow);
    }
  });
});

describe('every template of the example and fixture projects', () => {
  const projects = [ROOT, join(ROOT, 'test/fixtures/projects/jaffle-shop'), join(ROOT, 'test/fixtures/projects/jinja-shop'), ...['trap-1-upsert-adds-tonight', 'trap-2-backfill-old-as-of', 'trap-3-insert-without-delete'].map((t) => join(ROOT, 'examples', t))];
  for (const dir of projects) {
    it(`renders the same both ways: ${dir === ROOT ? 'the example' : dir.slice(ROOT.length + 1)}`, () => {
      const project = loadProject(dir);
      const render = bothWays(project.macros);
      const files = [...project.models.map((m) => ({ path: m.path, source: m.rawSql })), ...sqlFiles(join(dir, 'tests'))];
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        for (const incremental of [false, true]) {
          const { fast, slow } = render(file.path, file.source, incremental);
          expect(fast, `${file.path} (is_incremental ${incremental})`).toEqual(slow);
        }
      }
    });
  }
});

function sqlFiles(dir: string): { path: string; source: string }[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e);
    if (statSync(path).isDirectory()) return sqlFiles(path);
    return e.endsWith('.sql') ? [{ path, source: readFileSync(path, 'utf8') }] : [];
  });
}

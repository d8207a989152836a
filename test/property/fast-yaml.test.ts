/**
 * fastYamlValue (js-yaml with YAML 1.2's core schema) gives the value the
 * `yaml` package gives, on random documents: property-file-like structures
 * written in block and flow style, and plain scalars of every kind the two
 * libraries could resolve differently. Where it declines (undefined), the
 * caller uses `yaml` itself, so only its answers are compared.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { fastYamlValue } from '../../src/project/fast-yaml.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Plain scalars the two libraries might resolve differently (numbers, booleans, nulls, dates, YAML 1.1 forms). */
const TRICKY = [
  '0x1F', '0X1F', '0o17', '017', '0b101', '1_000', '1,000', '+12', '-0', '-.5', '.5', '5.', '1e3', '1E3', '1.5e-3', '+.inf', '-.Inf', '.NaN', '.nan', 'NaN', 'inf',
  'True', 'TRUE', 'true', 'tRue', 'yes', 'No', 'on', 'OFF', 'y', 'n', '~', 'null', 'Null', 'NULL', 'nULL', '2026-09-01', '2026-09-01 10:00:00', '12:30', '12:30:45', '1:2',
  'order_date', 'select * from x', '!!str 12', '!x y', '&a 1', '*a', '!=', 'a!b', 'a*b', "'*a'", '"!!int 1"', '|', '>', '|-', '#c', 'a #c', '[1, 2]', '{a: 1}', '? a', '9007199254740993', '123456789012345678901234567890', '0.1', '00', '0', '-', '--', '.', '0.', 'e3', '1e', 'a: b',
];
const plain = fc.oneof(fc.constantFrom(...TRICKY), fc.stringMatching(/^[a-zA-Z0-9_.+\-~:]{1,12}$/));
const key = fc.oneof(fc.constantFrom('name', 'description', 'config', 'columns', 'tests', 'models', 'materialized', 'tags', 'unique_key', '1', 'true', 'null'), fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/));

/** A block-style document with raw plain scalars, as someone would type it. */
const handTyped: fc.Arbitrary<string> = fc.letrec<{ node: string[] }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plain.map((p) => [p]),
    fc.array(fc.tuple(key, tie('node')), { minLength: 1, maxLength: 4 }).map((pairs) => {
      const seen = new Set<string>();
      return pairs.filter(([k]) => !seen.has(k) && seen.add(k)).flatMap(([k, v]) => (v.length === 1 && !v[0]!.startsWith(' ') && !v[0]!.startsWith('- ') ? [`${k}: ${v[0]}`] : [`${k}:`, ...v.map((l) => `  ${l}`)]));
    }),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((items) => items.flatMap((v) => [`- ${v[0]}`, ...v.slice(1).map((l) => `  ${l}`)])),
  ),
})).node.map((lines) => `${lines.join('\n')}\n`);

/** Values written by the yaml package in various styles (quoting, block scalars, flow collections). */
const value = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string(),
    fc.constantFrom(...TRICKY),
    fc.string({ unit: fc.constantFrom('a', ' ', '\n', ':', '#', '-', "'", '"', '\\', '{', '[', '|', '>', '\t', 'é') }),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;
const written = fc.tuple(value, fc.record({ flow: fc.boolean(), lineWidth: fc.constantFrom(0, 20, 80), defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED') }))
  .map(([v, o]) => stringify(v, { collectionStyle: o.flow ? 'flow' : 'block', lineWidth: o.lineWidth, defaultStringType: o.defaultStringType as 'PLAIN' }));

function viaYaml(text: string): { ok: true; value: unknown } | { ok: false } {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return { ok: false };
  return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) as unknown };
}

describe('fast YAML values', () => {
  for (const [name, docs] of [['typed by hand', handTyped], ['written by the yaml package', written]] as const) {
    it(`equal the yaml package's, on documents ${name}`, () => {
      let answered = 0;
      fc.assert(
        fc.property(docs, (text) => {
          const fast = fastYamlValue(text);
          if (fast === undefined) return;
          answered += 1;
          const slow = viaYaml(text);
          expect(slow.ok, `yaml rejects what js-yaml accepted:\n${text}`).toBe(true);
          if (slow.ok) expect(fast.value, text).toEqual(slow.value);
        }),
        { seed: 20261202, numRuns: 4000 },
      );
      expect(answered).toBeGreaterThan(2000);
    });
  }

  it('declines tags, aliases and directives, and parses the example property files', () => {
    expect(fastYamlValue('a: !!str 12\n')).toBeUndefined();
    expect(fastYamlValue('a: &x 1\nb: *x\n')).toBeUndefined();
    expect(fastYamlValue('%YAML 1.1\n---\na: yes\n')).toBeUndefined();
    expect(fastYamlValue('a: 1\na: 2\n')).toBeUndefined();
    expect(fastYamlValue('')).toEqual({ value: null });
    expect(fastYamlValue('description: select * from orders\n')).toEqual({ value: { description: 'select * from orders' } });
    // The repository's own yml files all take the fast path, with yaml's values.
    const files = execFileSync('git', ['ls-files', '*.yml', '*.yaml'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => f !== '' && !f.startsWith('.github'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const slow = viaYaml(text);
      if (!slow.ok) continue;
      expect(fastYamlValue(text), file).toEqual({ value: slow.value });
    }
  });
});

/**
 * The value of a YAML file, parsed by js-yaml (several times faster than the
 * `yaml` package, which builds a document with positions: 0.3 s for the
 * property files of a 10,000-model project). Only the value: line numbers,
 * needed for error messages, still come from `yaml` when asked for.
 *
 * The schema is YAML 1.2's core schema exactly as `yaml` resolves it (same
 * patterns and conversions for null, booleans, integers and floats; no
 * timestamps, no merge keys, no `1_000`), so both give the same value; a
 * differential property test checks it. Anything js-yaml rejects, and any
 * file with tags, aliases or a %YAML directive, returns undefined: the
 * caller parses it with `yaml` as before (same value, same errors).
 */
import { FAILSAFE_SCHEMA, load, Type } from 'js-yaml';

const scalar = (tag: string, test: RegExp, construct: (text: string) => unknown) =>
  new Type(`tag:yaml.org,2002:${tag}`, { kind: 'scalar', resolve: (text: string | null) => text !== null && test.test(text), construct });

const INT_OCT = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN_INF = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/**
 * YAML 1.2 core as `yaml` resolves it (yaml/dist/schema/core/). js-yaml keeps
 * one implicit type per tag, so each tag's patterns are one alternation; no
 * text matches patterns of two tags, so the order between tags is moot.
 */
const CORE = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar('null', /^(?:~|[Nn]ull|NULL)?$/, () => null),
    scalar('bool', /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === 't' || text[0] === 'T'),
    scalar('int', /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/, (text) =>
      INT_OCT.test(text) ? parseInt(text.substring(2), 8) : INT_HEX.test(text) ? parseInt(text.substring(2), 16) : parseInt(text, 10)),
    scalar('float', /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/, (text) =>
      FLOAT_NAN_INF.test(text)
        ? text.slice(-3).toLowerCase() === 'nan' ? Number.NaN : text[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
        : parseFloat(text)),
  ],
});

/**
 * Syntax js-yaml and `yaml` may read differently: tags, anchors and aliases,
 * directives and document markers, block scalars with an indentation indicator, a sequence
 * nested on its parent's line (`- - a`), an empty node before a comment
 * (`- #c`), a null key (`null: a`, `: a`).
 */
const DIFFERENT = /(?:^|[\s[{,:-])(?:![\w!<]|[*&][^\s,[\]{}])|^(?:%|---|\.\.\.)|[|>][-+]?[1-9]|-[ \t]+-(?:[ \t]|$)|[-:?][ \t]+#|(?:^|[\s{,?-])(?:~|null|Null|NULL)?[ \t]*:(?:[ \t]|$)/m;

/** The file's value, or undefined when `yaml` must parse it. An empty file is null. */
export function fastYamlValue(text: string): { value: unknown } | undefined {
  if (DIFFERENT.test(text)) return undefined;
  try {
    const value = load(text, { schema: CORE });
    return { value: value === undefined ? null : value };
  } catch {
    return undefined;
  }
}

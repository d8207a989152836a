import { versionKey } from '../project/model-version.js';
import { ProjectError } from '../errors/project-error.js';

/** What a `given:` input names: `ref('x')` (or `ref('package', 'x')`), `source('s', 't')`, or `this`. */
export type GivenInput =
  | { readonly kind: 'ref'; readonly name: string; readonly package?: string }
  | { readonly kind: 'source'; readonly source: string; readonly table: string }
  | { readonly kind: 'this' };

const STRING = String.raw`\s*(?:'([^']*)'|"([^"]*)")\s*`;
const REF = new RegExp(String.raw`^ref\(${STRING}(?:,${STRING})?(?:,\s*(?:v|version)\s*=\s*(?:'([^']*)'|"([^"]*)"|([^)\s]+))\s*)?\)$`);
const SOURCE = new RegExp(String.raw`^source\(${STRING},${STRING}\)$`);

/**
 * Reads an input as dbt does (statically: a ref or source call with string
 * arguments, or `this`); anything else is refused with dbt's message.
 */
export function parseGivenInput(text: string, where: { readonly file: string; readonly line?: number }): GivenInput {
  const input = text.trim();
  if (input === 'this') return { kind: 'this' };
  const ref = REF.exec(input);
  if (ref) {
    const first = ref[1] ?? ref[2]!;
    const second = ref[3] ?? ref[4];
    // ref('m', v=1): the version's key, `m.v1`, as a model's ref() records it.
    const version = ref[5] ?? ref[6] ?? ref[7];
    const named = (name: string) => (version === undefined ? name : versionKey(name, version));
    return second === undefined ? { kind: 'ref', name: named(first) } : { kind: 'ref', name: named(second), package: first };
  }
  const source = SOURCE.exec(input);
  if (source) return { kind: 'source', source: source[1] ?? source[2]!, table: source[3] ?? source[4]! };
  throw new ProjectError(`Unit test given inputs must be either a 'ref', 'source' or 'this' call. Got: ${input}`, {
    location: where,
    hint: "write input: ref('model_name'), input: source('source_name', 'table_name') or input: this",
  });
}

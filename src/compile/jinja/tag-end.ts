/**
 * Where the tag whose code starts at `from` closes: the index of its closer
 * (`%}` or `}}`), skipping string literals (with backslash escapes); -1 when
 * it never closes. The source rewrites (namespace sets, unpacking sets, the
 * `in` test) share it.
 */
export function tagCloser(source: string, from: number, closer: '%}' | '}}' = '%}'): number {
  let quote: string | undefined;
  for (let i = from; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === closer[0] && source[i + 1] === closer[1]) {
      return i;
    }
  }
  return -1;
}

/** Index of the next `{{`, `{%` or `{#` at or after i (the source length when none), as nunjucks' lexer finds tags. */
export function nextTagStart(source: string, i: number): number {
  let at = source.indexOf('{', i);
  while (at >= 0 && at + 1 < source.length) {
    const c = source[at + 1];
    if (c === '{' || c === '%' || c === '#') return at;
    at = source.indexOf('{', at + 1);
  }
  return source.length;
}

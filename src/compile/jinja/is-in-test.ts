/**
 * Jinja's `in` test (`x is in seq`, `x is not in seq`) does not parse in
 * nunjucks, where `in` is only an operator. Inside tags (outside string
 * literals, `{# #}` comments and `{% raw %}` blocks) it is rewritten to the
 * operator, which means the same: `x in seq`, `x not in seq`. Only spaces
 * and tabs are touched, so lines (and error positions) hold.
 */
import { tagCloser } from './tag-end.js';

const IS_IN = /\bis([ \t]+)(not[ \t]+)?in\b/g;

function rewriteCode(code: string): string {
  let out = '';
  let plain = '';
  let quote: string | undefined;
  const flush = () => {
    out += plain.replace(IS_IN, (_m, _gap: string, not?: string) => (not ? 'not in' : 'in'));
    plain = '';
  };
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quote) {
      out += c;
      if (c === '\\' && i + 1 < code.length) out += code[++i];
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      flush();
      quote = c;
      out += c;
    } else {
      plain += c;
    }
  }
  flush();
  return out;
}

export function rewriteIsInTests(source: string): string {
  if (!/\bis[ \t]+(?:not[ \t]+)?in\b/.test(source)) return source;
  let out = '';
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{', i);
    if (open < 0 || open + 1 >= source.length) break;
    const kind = source[open + 1];
    if (kind === '#') {
      const end = source.indexOf('#}', open + 2);
      if (end < 0) break;
      out += source.slice(i, end + 2);
      i = end + 2;
      continue;
    }
    if (kind !== '{' && kind !== '%') {
      out += source.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    const end = tagCloser(source, open + 2, kind === '{' ? '}}' : '%}');
    if (end < 0) break;
    const code = source.slice(open + 2, end);
    if (kind === '%' && /^-?\s*raw\s*-?$/.test(code)) {
      const endraw = source.slice(end).search(/\{%-?\s*endraw\s*-?%\}/);
      if (endraw < 0) break;
      out += source.slice(i, end + endraw);
      i = end + endraw;
      continue;
    }
    out += `${source.slice(i, open + 2)}${rewriteCode(code)}`;
    i = end;
  }
  return out + source.slice(i);
}

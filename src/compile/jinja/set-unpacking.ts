/**
 * Jinja's `{% set a, b = expr %}` unpacks: a gets expr[0], b gets expr[1].
 * nunjucks reads the same text as "set a and b both to expr", silently. The
 * template is rewritten (on the same lines, so error positions hold) into
 * `{% set __mini_dbt_unpacked = __mini_dbt_unpack(expr, 2) %}{% set a =
 * __mini_dbt_unpacked[0] %}{% set b = __mini_dbt_unpacked[1] %}`, and the
 * helper fails as Python does when the counts differ.
 */
import { tagCloser } from './tag-end.js';

export const UNPACK_GLOBAL = '__mini_dbt_unpack';
const UNPACKED = '__mini_dbt_unpacked';

/** Python's unpacking of `value` into `count` targets: a list, the characters of a string, the keys of a mapping. */
export function unpack(value: unknown, count: unknown): unknown[] {
  const n = Number(count);
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = [...value];
  else if (value !== null && typeof value === 'object') items = Object.keys(value);
  else throw new Error(`cannot unpack non-iterable ${value === null || value === undefined ? 'None' : typeof value} object`);
  if (items.length > n) throw new Error(`too many values to unpack (expected ${n})`);
  if (items.length < n) throw new Error(`not enough values to unpack (expected ${n}, got ${items.length})`);
  return items;
}

const SET_TARGETS = /\{%(-?)\s*set\s+((?:[A-Za-z_]\w*\s*,\s*)+[A-Za-z_]\w*)\s*,?\s*=(?!=)/g;

export function rewriteUnpackingSets(source: string): string {
  if (!source.includes('set')) return source;
  let out = '';
  let last = 0;
  SET_TARGETS.lastIndex = 0;
  for (let m = SET_TARGETS.exec(source); m; m = SET_TARGETS.exec(source)) {
    const exprStart = m.index + m[0].length;
    const closer = tagCloser(source, exprStart);
    if (closer < 0) break;
    const end = source[closer - 1] === '-' ? { at: closer - 1, trim: true } : { at: closer, trim: false };
    const targets = m[2]!.split(',').map((t) => t.trim());
    const expr = source.slice(exprStart, end.at);
    const assigns = targets.map((t, i) => `{% set ${t} = ${UNPACKED}[${i}] ${i === targets.length - 1 && end.trim ? '-' : ''}%}`).join('');
    out += `${source.slice(last, m.index)}{%${m[1]} set ${UNPACKED} = ${UNPACK_GLOBAL}(${expr.trim()}, ${targets.length}) %}${assigns}`;
    last = end.at + (end.trim ? 3 : 2);
    SET_TARGETS.lastIndex = last;
  }
  return out + source.slice(last);
}

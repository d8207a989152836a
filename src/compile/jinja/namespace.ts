import { splitKeywordArgs } from '../keyword-args.js';
import { tagCloser } from './tag-end.js';

const NAMESPACES = new WeakSet<object>();

/** Jinja's `namespace(a=1)`: a mutable object whose attributes `{% set ns.a = ... %}` can change. */
export function namespace(...args: unknown[]): Record<string, unknown> {
  const { positional, keywords } = splitKeywordArgs(args);
  const out: Record<string, unknown> = {};
  for (const p of positional) if (p !== null && typeof p === 'object') Object.assign(out, p);
  Object.assign(out, keywords);
  NAMESPACES.add(out);
  return out;
}

/** Whether a value is a namespace(): its attributes are its items, whatever their names (`ns.items`). */
export const isNamespace = (value: unknown): boolean => value !== null && typeof value === 'object' && NAMESPACES.has(value);

export const SETATTR_GLOBAL = '__mini_dbt_setattr';

/** What `{% set ns.attr = value %}` becomes. */
export function setAttribute(target: unknown, key: unknown, value: unknown): string {
  // As Jinja: only a namespace() takes attributes (a dict, a relation or `adapter` cannot be changed this way).
  if (target === null || typeof target !== 'object' || !NAMESPACES.has(target)) {
    throw new Error(`cannot set attribute '${String(key)}': the target is not a namespace()`);
  }
  // Defined, not assigned: every name becomes an item of the namespace (`__proto__` too), never its prototype.
  Object.defineProperty(target, String(key), { value, writable: true, enumerable: true, configurable: true });
  return '';
}

const SET_ATTRIBUTE = /\{%(-?)\s*set\s+([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*=(?!=)/g;

/**
 * nunjucks cannot parse `{% set ns.x = expr %}`; rewrite it (same lines, so
 * error positions hold) into `{% do __mini_dbt_setattr(ns, 'x', expr) %}`.
 */
export function rewriteNamespaceSets(source: string): string {
  if (!source.includes('set')) return source;
  let out = '';
  let last = 0;
  SET_ATTRIBUTE.lastIndex = 0;
  for (let m = SET_ATTRIBUTE.exec(source); m; m = SET_ATTRIBUTE.exec(source)) {
    const exprStart = m.index + m[0].length;
    const closer = tagCloser(source, exprStart);
    if (closer < 0) break;
    const end = source[closer - 1] === '-' ? closer - 1 : closer;
    out += `${source.slice(last, m.index)}{%${m[1]} do ${SETATTR_GLOBAL}(${m[2]}, '${m[3]}', ${source.slice(exprStart, end).trim()}) `;
    last = end;
    SET_ATTRIBUTE.lastIndex = end;
  }
  return out + source.slice(last);
}

import { isSafeString } from '../nunjucks-internals.js';
import { isPlainDict } from '../python-repr.js';

/** The items Python iterates in a value: a list's items, a string's characters, a dict's keys. */
export function sequenceItems(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' || isSafeString(value)) return [...String(value)];
  if (value instanceof Map || value instanceof Set) return [...value.keys()];
  if (typeof value === 'object' && Symbol.iterator in value) return [...(value as Iterable<unknown>)];
  if (isPlainDict(value)) return Object.keys(value);
  if (typeof value === 'object') return Object.keys(value);
  return [value];
}

/** Python's ordering of two sort keys (numbers by value, strings by code point). */
export function compareKeys(a: unknown, b: unknown): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareKeys(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  const x = isSafeString(a) ? String(a) : a;
  const y = isSafeString(b) ? String(b) : b;
  if ((x as number) < (y as number)) return -1;
  if ((x as number) > (y as number)) return 1;
  return 0;
}

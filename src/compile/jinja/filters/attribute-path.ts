import { readAttribute } from '../sandbox-policy.js';

/** Jinja's attribute lookup for filters: `a.b.0` walks keys and list indexes, through the sandbox. */
export function attributePath(item: unknown, path: unknown): unknown {
  let current = item;
  for (const part of String(path).split('.')) {
    if (current === null || current === undefined) return undefined;
    current = readAttribute(current, part);
  }
  return current;
}

/** Jinja's default comparison key: strings compare case-insensitively unless case_sensitive. */
export function comparisonKey(value: unknown, caseSensitive: boolean): unknown {
  return typeof value === 'string' && !caseSensitive ? value.toLowerCase() : value;
}

import { splitKeywordArgs } from '../../keyword-args.js';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** `tojson` (filter and function, as dbt's): JSON text; `sort_keys` and `indent` as in Python. */
export function tojson(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const sorted = Boolean(keywords.sort_keys ?? false);
  const indent = keywords.indent ?? positional[0];
  const text = JSON.stringify(sorted ? sortKeys(value) : value, (_k, v: unknown) => (v === undefined ? null : v), typeof indent === 'number' ? indent : undefined);
  return text ?? 'null';
}

/** `fromjson(text, default)`. */
export function fromjson(text: unknown, fallback?: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch (err) {
    if (fallback !== undefined) return fallback;
    throw err;
  }
}

import { splitKeywordArgs } from '../../keyword-args.js';
import { isSafeString } from '../nunjucks-internals.js';
import { isPlainDict, pythonNumber } from '../python-repr.js';

const STRING_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A JSON string as Python's json.dumps writes it (ensure_ascii: every non-ASCII character as \uXXXX). */
function jsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = text.charCodeAt(i);
    if (STRING_ESCAPES[ch]) out += STRING_ESCAPES[ch];
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

interface DumpOptions {
  readonly sortKeys: boolean;
  readonly indent: string | undefined;
}

/** Python's json.dumps(value, sort_keys=..., indent=...): `{"a": 1, "b": [1, 2]}`. */
export function pythonJsonDumps(value: unknown, options: DumpOptions, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : !Number.isFinite(value) ? (value > 0 ? 'Infinity' : '-Infinity') : pythonNumber(value);
  if (typeof value === 'string' || isSafeString(value)) return jsonString(String(value));
  const { indent } = options;
  const open = (items: string[], start: string, end: string) => {
    if (items.length === 0) return start + end;
    if (indent === undefined) return `${start}${items.join(', ')}${end}`;
    const inner = `\n${indent.repeat(depth + 1)}`;
    return `${start}${inner}${items.join(`,${inner}`)}\n${indent.repeat(depth)}${end}`;
  };
  if (Array.isArray(value)) return open(value.map((v) => pythonJsonDumps(v, options, depth + 1)), '[', ']');
  if (isPlainDict(value) || value instanceof Map) {
    const entries = value instanceof Map ? [...value.entries()].map(([k, v]) => [String(k), v] as const) : Object.entries(value);
    if (options.sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return open(entries.map(([k, v]) => `${jsonString(k)}: ${pythonJsonDumps(v, options, depth + 1)}`), '{', '}');
  }
  // A date (its ISO text, as before), a relation (its text): Python's json.dumps would refuse them.
  const toJSON = (value as { toJSON?: () => unknown }).toJSON;
  return jsonString(String(typeof toJSON === 'function' ? toJSON.call(value) : value));
}

const indentOf = (indent: unknown): string | undefined =>
  typeof indent === 'number' ? ' '.repeat(indent) : typeof indent === 'string' ? indent : undefined;

/** dbt's `tojson(value, default=none, sort_keys=false)`: Python's json.dumps. */
export function tojson(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const sortKeys = Boolean(keywords.sort_keys ?? positional[1] ?? false);
  return pythonJsonDumps(value, { sortKeys, indent: indentOf(keywords.indent) });
}

const HTML_SAFE: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', "'": '\\u0027' };

/** Jinja's `|tojson(indent=none)` filter: keys sorted, and `< > & '` escaped for HTML. */
export function tojsonFilter(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const text = pythonJsonDumps(value, { sortKeys: true, indent: indentOf(keywords.indent ?? positional[0]) });
  return text.replace(/[<>&']/g, (c) => HTML_SAFE[c]!);
}

/** dbt's `fromjson(text, default=none)`: the value, or the default when the text is not JSON. */
export function fromjson(text: unknown, fallback: unknown = null): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return fallback;
  }
}

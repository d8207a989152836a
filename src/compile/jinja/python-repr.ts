import { isNamespace } from './namespace.js';
import { isSafeString } from './nunjucks-internals.js';

/**
 * Python's str() and repr() of template values, as Jinja prints them: lists
 * `[1, 'a']`, tuples `(1, 2)` and `(1,)`, dicts `{'a': None}`, sets `{1, 2}`,
 * True/False/None, floats as Python writes them (`1e-05`), strings quoted as
 * Python quotes them. Tuples and sets are JavaScript arrays marked here.
 */
const TUPLES = new WeakSet<object>();
const SETS = new WeakSet<object>();

/** Mark a list as a tuple (it still behaves as a list everywhere; only its text differs). */
export function tuple<T>(items: T[]): T[] {
  TUPLES.add(items);
  return items;
}

export const isTuple = (value: unknown): boolean => Array.isArray(value) && TUPLES.has(value);

/** Mark a list as a Python set (printed `{1, 2}`). */
export function pySet<T>(items: T[]): T[] {
  SETS.add(items);
  return items;
}

export const isPySet = (value: unknown): boolean => Array.isArray(value) && SETS.has(value);

const VIEWS = new WeakMap<object, string>();

/** Mark a list as a dict view (`dict_items([...])`, `dict_keys([...])`, `dict_values([...])` when printed). */
export function dictView<T>(kind: 'dict_items' | 'dict_keys' | 'dict_values', items: T[]): T[] {
  VIEWS.set(items, kind);
  return items;
}

/** A plain dict: an object literal or parsed data (not a relation, a date or a function). */
export function isPlainDict(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isSafeString(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Python's repr of a float or an int. */
export function pythonNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  const abs = Math.abs(n);
  const text = abs < 1e-4 || abs >= 1e16 ? n.toExponential() : String(n);
  // Python writes at least two exponent digits: 1e-05, 1.5e+20.
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Python's repr of a string: single quotes unless it holds a single quote and no double quote. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (ch === quote) out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** Set by macro-binding.ts (which imports this file): the macro name of a function, if it is a macro. */
export const functionNames: { macro: (fn: unknown) => string | undefined } = { macro: () => undefined };

/** Python's str() of a value. */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pythonNumber(value);
  if (typeof value === 'string' || isSafeString(value)) return String(value);
  if (Array.isArray(value)) {
    const items = value.map(pythonRepr);
    if (SETS.has(value)) return items.length === 0 ? 'set()' : `{${items.join(', ')}}`;
    if (TUPLES.has(value)) return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    const view = VIEWS.get(value);
    return view ? `${view}([${items.join(', ')}])` : `[${items.join(', ')}]`;
  }
  if (value instanceof Map) return `{${[...value.entries()].map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  if (isPlainDict(value)) {
    const dict = `{${Object.keys(value).map((k) => `${pythonRepr(k)}: ${pythonRepr(value[k])}`).join(', ')}}`;
    return isNamespace(value) ? `<Namespace ${dict}>` : dict;
  }
  // A function prints as Python names one, never as its JavaScript source.
  if (typeof value === 'function') {
    const macro = functionNames.macro(value);
    return macro !== undefined ? `<Macro '${macro}'>` : `<function ${value.name || '<lambda>'}>`;
  }
  return String(value);
}

/** Python's repr() of a value (as it appears inside a printed list or dict). */
export function pythonRepr(value: unknown): string {
  if (value === undefined) return 'Undefined';
  if (typeof value === 'string' || isSafeString(value)) return pythonStringRepr(String(value));
  return pythonStr(value);
}

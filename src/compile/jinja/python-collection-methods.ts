import { splitKeywordArgs } from '../keyword-args.js';
import { compareKeys } from './filters/sequence-items.js';
import { isNamespace } from './namespace.js';
import { internals, isSafeString } from './nunjucks-internals.js';
import { dictView, isPlainDict, pythonRepr, tuple } from './python-repr.js';
import { pyEquals } from './python-truth.js';

type Method<T> = (this: T, ...args: unknown[]) => unknown;

const indexOf = (list: unknown[], x: unknown): number => list.findIndex((item) => pyEquals(item, x));

/** Python's list methods (Jinja's sandbox allows the mutating ones dbt projects use). */
const LIST_METHODS: Readonly<Record<string, Method<unknown[]>>> = {
  append(x) { this.push(x); return null; },
  extend(items) { this.push(...(Array.isArray(items) ? items : [...String(items)])); return null; },
  insert(i, x) { const n = Number(i); this.splice(n < 0 ? Math.max(0, this.length + n) : n, 0, x); return null; },
  remove(x) {
    const i = indexOf(this, x);
    if (i < 0) throw new Error('ValueError: list.remove(x): x not in list');
    this.splice(i, 1);
    return null;
  },
  pop(i) {
    if (this.length === 0) throw new Error('IndexError: pop from empty list');
    const n = i === undefined ? this.length - 1 : Number(i) < 0 ? this.length + Number(i) : Number(i);
    if (n < 0 || n >= this.length) throw new Error('IndexError: pop index out of range');
    return this.splice(n, 1)[0];
  },
  index(x) {
    const i = indexOf(this, x);
    if (i < 0) throw new Error(`ValueError: ${pythonRepr(x)} is not in list`);
    return i;
  },
  count(x) { return this.filter((item) => pyEquals(item, x)).length; },
  sort(...args) {
    const { keywords } = splitKeywordArgs(args);
    const direction = keywords.reverse ? -1 : 1;
    this.sort((a, b) => compareKeys(a, b) * direction);
    return null;
  },
  reverse() { this.reverse(); return null; },
  copy() { return [...this]; },
  clear() { this.length = 0; return null; },
};

const own = (dict: object, key: unknown) => Object.prototype.hasOwnProperty.call(dict, String(key));
const put = (dict: Record<string, unknown>, key: unknown, value: unknown) =>
  Object.defineProperty(dict, String(key), { value, writable: true, enumerable: true, configurable: true });

/** Python's dict methods on a plain dict. */
const DICT_METHODS: Readonly<Record<string, Method<Record<string, unknown>>>> = {
  items() { return dictView('dict_items', Object.entries(this).map((e) => tuple(e))); },
  keys() { return dictView('dict_keys', Object.keys(this)); },
  values() { return dictView('dict_values', Object.values(this)); },
  update(...args) {
    const { positional, keywords } = splitKeywordArgs(args);
    const other = positional[0];
    if (Array.isArray(other)) for (const pair of other) put(this, (pair as unknown[])[0], (pair as unknown[])[1]);
    else if (other !== null && typeof other === 'object') for (const [k, v] of Object.entries(other)) put(this, k, v);
    for (const [k, v] of Object.entries(keywords)) put(this, k, v);
    return null;
  },
  copy() { return Object.assign({}, this); },
  clear() { for (const k of Object.keys(this)) delete this[k]; return null; },
  popitem() {
    const keys = Object.keys(this);
    if (keys.length === 0) throw new Error("KeyError: 'popitem(): dictionary is empty'");
    const k = keys[keys.length - 1]!;
    const v = this[k];
    delete this[k];
    return tuple([k, v]);
  },
  has_key(key) { return own(this, key); },
};

/** A negative index counts from the end, as in Python: `xs[-1]`, `'abc'[-1]`. */
function negativeIndex(obj: unknown, key: unknown): unknown {
  if (typeof key !== 'number' || !Number.isInteger(key) || key >= 0) return undefined;
  if (Array.isArray(obj)) return obj[obj.length + key];
  if (typeof obj === 'string' || isSafeString(obj)) {
    const text = String(obj);
    return text[text.length + key];
  }
  return undefined;
}

/** Python's `x in container`: by value in a list, as a substring in text, as a key in a dict. */
export function pyContains(container: unknown, item: unknown): boolean {
  if (Array.isArray(container)) return container.some((c) => pyEquals(c, item));
  if (typeof container === 'string' || isSafeString(container)) return String(container).includes(String(item));
  if (container instanceof Map || container instanceof Set) return container.has(item);
  if (container !== null && typeof container === 'object') return own(container, item);
  throw new TypeError(`argument of type '${container === null || container === undefined ? 'NoneType' : typeof container}' is not iterable`);
}

let patched = false;

/**
 * Python's list and dict methods in templates (`xs.append(1)`, `xs.pop(0)`,
 * `xs.sort()`, `d.update(a=1)`, `d.items()` as tuples, `d.copy()`), and
 * negative indexes. Installed over nunjucks' Jinja compat members, which
 * lack several and differ in others (`pop(0)` gave a list).
 */
export function installPythonCollectionMethods(): void {
  if (patched) return;
  patched = true;
  const { runtime } = internals;
  runtime.inOperator = (item: unknown, container: unknown) => pyContains(container, item);
  const previous = runtime.memberLookup as (this: unknown, obj: unknown, val: unknown, ...rest: unknown[]) => unknown;
  runtime.memberLookup = function memberLookup(this: unknown, obj: unknown, val: unknown, ...rest: unknown[]): unknown {
    if (rest.length < 2) {
      if (typeof val === 'string') {
        if (isNamespace(obj) && own(obj as object, val)) return (obj as Record<string, unknown>)[val];
        if (Array.isArray(obj) && Object.prototype.hasOwnProperty.call(LIST_METHODS, val)) return LIST_METHODS[val]!.bind(obj);
        if (isPlainDict(obj) && !own(obj, val) && Object.prototype.hasOwnProperty.call(DICT_METHODS, val)) return DICT_METHODS[val]!.bind(obj);
      }
      const fromEnd = negativeIndex(obj, val);
      if (fromEnd !== undefined) return fromEnd;
    }
    return previous.call(this, obj, val, ...rest);
  };
}

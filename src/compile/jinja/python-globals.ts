import { createHash } from 'node:crypto';
import { splitKeywordArgs } from '../keyword-args.js';
import { sequenceItems } from './filters/sequence-items.js';
import { pySet, tuple } from './python-repr.js';
import { pyEquals } from './python-truth.js';
import { pythonTypeName } from './python-type-name.js';

/** Whether Python could iterate the value (a str, a list, a dict, ...; not a number, a bool or None). */
const isIterable = (value: unknown): boolean => value !== null && value !== undefined && (typeof value === 'object' || typeof value === 'string');

/**
 * Python's TypeError text for iterating the first value that cannot be
 * iterated, which dbt's *_strict functions raise as a compilation error;
 * `needle` finds the call's line in the template.
 */
function notIterable(values: readonly unknown[], needle = ''): Error | undefined {
  const at = values.findIndex((v) => !isIterable(v));
  return at < 0 ? undefined : Object.assign(new Error(`'${pythonTypeName(values[at])}' object is not iterable`), needle ? { needle } : {});
}

function zipped(lists: readonly unknown[]): unknown[] {
  const items = lists.map(sequenceItems);
  const n = items.length === 0 ? 0 : Math.min(...items.map((l) => l.length));
  return Array.from({ length: n }, (_, i) => tuple(items.map((l) => l[i])));
}

/** dbt's `zip(*lists, default=None)`: tuples of the i-th items, as long as the shortest; `default` when an argument cannot be iterated. */
function zip(...args: unknown[]): unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  return notIterable(positional) ? keywords.default ?? null : zipped(positional);
}

/** dbt's `zip_strict(*lists)`: zip, raising a compilation error when an argument cannot be iterated. */
function zipStrict(...args: unknown[]): unknown[] {
  const { positional } = splitKeywordArgs(args);
  const error = notIterable(positional, 'zip_strict(');
  if (error) throw error;
  return zipped(positional);
}

function distinct(value: unknown): unknown {
  const out: unknown[] = [];
  for (const item of sequenceItems(value)) if (!out.some((seen) => pyEquals(seen, item))) out.push(item);
  return pySet(out);
}

/** dbt's `set(iterable, default=None)`: the distinct items, printed as a Python set; `default` when the value cannot be iterated. */
function set(...args: unknown[]): unknown[] | unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  const value = positional[0];
  if (!isIterable(value)) return keywords.default ?? positional[1] ?? null;
  return distinct(value);
}

/** dbt's `set_strict(iterable)`: set, raising a compilation error when the value cannot be iterated. */
function setStrict(...args: unknown[]): unknown {
  const { positional } = splitKeywordArgs(args);
  const error = notIterable([positional[0]], 'set_strict(');
  if (error) throw error;
  return distinct(positional[0]);
}

/** Jinja's `dict(a=1)` / `dict(other, a=1)`. */
function dict(...args: unknown[]): Record<string, unknown> {
  const { positional, keywords } = splitKeywordArgs(args);
  const out: Record<string, unknown> = {};
  const put = (k: unknown, v: unknown) => Object.defineProperty(out, String(k), { value: v, writable: true, enumerable: true, configurable: true });
  const source = positional[0];
  if (Array.isArray(source)) for (const pair of source) put((pair as unknown[])[0], (pair as unknown[])[1]);
  else if (source !== null && typeof source === 'object') for (const [k, v] of Object.entries(source)) put(k, v);
  for (const [k, v] of Object.entries(keywords)) put(k, v);
  return out;
}

/** Jinja's `cycler(*items)`: next() walks the items round, `current` is the one next() gives next. */
function cycler(...items: unknown[]): { next(): unknown; reset(): string; readonly current: unknown } {
  let position = 0;
  return {
    next() {
      const item = items[position];
      position = (position + 1) % Math.max(1, items.length);
      return item;
    },
    reset() {
      position = 0;
      return '';
    },
    get current() {
      return items[position];
    },
  };
}

/** Jinja's `joiner(sep=', ')`: '' the first time it is called, the separator after. */
function joiner(separator: unknown = ', '): () => string {
  let used = false;
  return () => {
    if (used) return String(separator);
    used = true;
    return '';
  };
}

/** dbt's `local_md5(text)`: the hex MD5 of the text's UTF-8 bytes. */
function localMd5(text: unknown): string {
  return createHash('md5').update(String(text), 'utf8').digest('hex');
}

/** Python builtins Jinja and dbt give every template. */
export const PYTHON_GLOBALS: Readonly<Record<string, unknown>> = { zip, zip_strict: zipStrict, set, set_strict: setStrict, dict, cycler, joiner, local_md5: localMd5 };

import { createHash } from 'node:crypto';
import { splitKeywordArgs } from '../keyword-args.js';
import { sequenceItems } from './filters/sequence-items.js';
import { pySet, tuple } from './python-repr.js';
import { pyEquals } from './python-truth.js';

/** dbt's `zip(*lists)`: tuples of the i-th items, as long as the shortest. */
function zip(...args: unknown[]): unknown[] {
  const { positional } = splitKeywordArgs(args);
  const lists = positional.map(sequenceItems);
  const n = lists.length === 0 ? 0 : Math.min(...lists.map((l) => l.length));
  return Array.from({ length: n }, (_, i) => tuple(lists.map((l) => l[i])));
}

/** dbt's `set(iterable)`: the distinct items, printed as a Python set. */
function set(...args: unknown[]): unknown[] | unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  const value = positional[0];
  if (value === undefined || (typeof value !== 'object' && typeof value !== 'string') || value === null) return keywords.default ?? positional[1] ?? null;
  const out: unknown[] = [];
  for (const item of sequenceItems(value)) if (!out.some((seen) => pyEquals(seen, item))) out.push(item);
  return pySet(out);
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
export const PYTHON_GLOBALS: Readonly<Record<string, unknown>> = { zip, set, dict, cycler, joiner, local_md5: localMd5 };

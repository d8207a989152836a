import { splitKeywordArgs } from '../../keyword-args.js';
import { attributePath, comparisonKey } from './attribute-path.js';

interface FilterContext {
  env: { getTest(name: string): (this: unknown, ...args: unknown[]) => boolean; getFilter(name: string): (this: unknown, ...args: unknown[]) => unknown };
}

const toList = (value: unknown): unknown[] => {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (value instanceof Map || value instanceof Set) return [...value.keys()];
  if (typeof value === 'object' && Symbol.iterator in value) return [...(value as Iterable<unknown>)];
  if (typeof value === 'object') return Object.keys(value);
  return [value];
};

/** `map(attribute='name')`, `map('upper')`, `map('replace', 'a', 'b')`. */
function map(this: FilterContext, value: unknown, ...args: unknown[]): unknown[] {
  const { positional, keywords } = splitKeywordArgs(args);
  const items = toList(value);
  if (keywords.attribute !== undefined) {
    return items.map((item) => attributePath(item, keywords.attribute) ?? keywords.default);
  }
  const filter = this.env.getFilter(String(positional[0]));
  return items.map((item) => filter.call(this, item, ...positional.slice(1)));
}

function selectOrReject(keep: boolean) {
  return function attrFilter(this: FilterContext, value: unknown, attribute: unknown, testName?: unknown, ...testArgs: unknown[]): unknown[] {
    const test = testName === undefined ? (v: unknown) => Boolean(v) : this.env.getTest(String(testName));
    return toList(value).filter((item) => test.call(this, attributePath(item, attribute), ...testArgs) === keep);
  };
}

function keyed(args: unknown[]): { key: (v: unknown) => unknown } {
  const { positional, keywords } = splitKeywordArgs(args);
  const caseSensitive = Boolean(keywords.case_sensitive ?? positional[0] ?? false);
  const attribute = keywords.attribute ?? positional[1];
  return { key: (v) => comparisonKey(attribute === undefined || attribute === null ? v : attributePath(v, attribute), caseSensitive) };
}

/** `unique(case_sensitive=false, attribute=none)`: the first of each distinct value, in order. */
function unique(value: unknown, ...args: unknown[]): unknown[] {
  const { key } = keyed(args);
  const seen = new Set<unknown>();
  return toList(value).filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function extreme(direction: 1 | -1) {
  return (value: unknown, ...args: unknown[]): unknown => {
    const { key } = keyed(args);
    let best: unknown;
    let bestKey: unknown;
    for (const item of toList(value)) {
      const k = key(item);
      if (best === undefined || (direction > 0 ? (k as number) > (bestKey as number) : (k as number) < (bestKey as number))) {
        best = item;
        bestKey = k;
      }
    }
    return best;
  };
}

/** `items`: a mapping's [key, value] pairs (for `for k, v in d|items`). */
function items(value: unknown): unknown[][] {
  if (value instanceof Map) return [...value.entries()];
  if (value === null || value === undefined) return [];
  return Object.entries(value as object);
}

function count(value: unknown): number {
  if (value instanceof Map || value instanceof Set) return value.size;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.keys(value).length;
  return (value as { length?: number } | null | undefined)?.length ?? 0;
}

/** Filters Jinja has and nunjucks lacks (or has with fewer arguments). */
export const COLLECTION_FILTERS: Readonly<Record<string, (this: FilterContext, ...args: never[]) => unknown>> = {
  map,
  selectattr: selectOrReject(true),
  rejectattr: selectOrReject(false),
  unique,
  min: extreme(-1),
  max: extreme(1),
  items,
  count,
};

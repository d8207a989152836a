import { splitKeywordArgs } from '../../keyword-args.js';
import { pythonStr, tuple } from '../python-repr.js';
import { pyAdd } from '../python-operators.js';
import { truthy } from '../python-truth.js';
import { attributePath, comparisonKey } from './attribute-path.js';
import { compareKeys, sequenceItems } from './sequence-items.js';

export interface FilterContext {
  env: { getTest(name: string): (this: unknown, ...args: unknown[]) => unknown; getFilter(name: string): (this: unknown, ...args: unknown[]) => unknown };
}

/** `map(attribute='name', default=x)`, `map('upper')`, `map('replace', 'a', 'b')`. */
function map(this: FilterContext, value: unknown, ...args: unknown[]): unknown[] {
  const { positional, keywords } = splitKeywordArgs(args);
  const items = sequenceItems(value);
  if (keywords.attribute !== undefined) {
    return items.map((item) => {
      const found = attributePath(item, keywords.attribute);
      return found === undefined ? keywords.default : found;
    });
  }
  const filter = this.env.getFilter(String(positional[0]));
  const extra = Object.keys(keywords).length > 0 ? [...positional.slice(1), { ...keywords, __keywords: true }] : positional.slice(1);
  return items.map((item) => filter.call(this, item, ...extra));
}

/** The test a select/reject filter applies: a named test with its arguments, or Python's truth. */
function testOf(context: FilterContext, args: unknown[]): (v: unknown) => boolean {
  if (args.length === 0) return truthy;
  const [name, ...testArgs] = args;
  const test = context.env.getTest(String(name));
  return (v) => test.call(context, v, ...testArgs) === true;
}

function selectOrRejectAttr(keep: boolean) {
  return function attrFilter(this: FilterContext, value: unknown, attribute: unknown, ...testArgs: unknown[]): unknown[] {
    const test = testOf(this, testArgs);
    return sequenceItems(value).filter((item) => test(attributePath(item, attribute)) === keep);
  };
}

function selectOrReject(keep: boolean) {
  return function plainFilter(this: FilterContext, value: unknown, ...testArgs: unknown[]): unknown[] {
    const test = testOf(this, testArgs);
    return sequenceItems(value).filter((item) => test(item) === keep);
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
  return sequenceItems(value).filter((item) => {
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
    for (const item of sequenceItems(value)) {
      const k = key(item);
      if (best === undefined || compareKeys(k, bestKey) * direction > 0) {
        best = item;
        bestKey = k;
      }
    }
    return best;
  };
}

/** `items`: a mapping's (key, value) pairs. */
function items(value: unknown): unknown[][] {
  if (value instanceof Map) return [...value.entries()].map((e) => tuple(e));
  if (value === null || value === undefined) return [];
  return Object.entries(value as object).map((e) => tuple(e));
}

function count(value: unknown): number {
  if (value instanceof Map || value instanceof Set) return value.size;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.keys(value).length;
  return (value as { length?: number } | null | undefined)?.length ?? 0;
}

/** `sum(attribute=none, start=0)`. */
function sum(value: unknown, ...args: unknown[]): unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  const attribute = keywords.attribute ?? positional[0];
  const start = keywords.start ?? positional[1] ?? 0;
  let total: unknown = start;
  for (const item of sequenceItems(value)) total = pyAdd(total, attribute === undefined || attribute === null ? item : attributePath(item, attribute));
  return total;
}

/** `default(value, default_value='', boolean=false)`: the default for an undefined value, or for any false one when boolean. */
function defaultFilter(value: unknown, ...args: unknown[]): unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  const fallback = keywords.default_value ?? positional[0] ?? '';
  const boolean = Boolean(keywords.boolean ?? positional[1] ?? false);
  return (boolean ? !truthy(value) : value === undefined) ? fallback : value;
}

/** `join(d='', attribute=none)`: each item as Python's str(). */
function join(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const separator = keywords.d ?? positional[0] ?? '';
  const attribute = keywords.attribute ?? positional[1];
  const parts = sequenceItems(value).map((item) => (attribute === undefined || attribute === null ? item : attributePath(item, attribute)));
  return parts.map((p) => (p === undefined ? '' : pythonStr(p))).join(String(separator));
}

/** `list`: a string's characters, a dict's keys, a list's items (a copy). */
function list(value: unknown): unknown[] {
  return [...sequenceItems(value)];
}

/** Filters Jinja has and nunjucks lacks (or has with fewer arguments). */
export const COLLECTION_FILTERS: Readonly<Record<string, (this: FilterContext, ...args: never[]) => unknown>> = {
  map,
  select: selectOrReject(true),
  reject: selectOrReject(false),
  selectattr: selectOrRejectAttr(true),
  rejectattr: selectOrRejectAttr(false),
  unique,
  min: extreme(-1),
  max: extreme(1),
  items,
  count,
  sum,
  join,
  list,
  default: defaultFilter,
  d: defaultFilter,
};

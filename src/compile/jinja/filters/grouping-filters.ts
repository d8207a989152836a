import { splitKeywordArgs } from '../../keyword-args.js';
import { tuple } from '../python-repr.js';
import { attributePath, comparisonKey } from './attribute-path.js';
import { compareKeys, sequenceItems } from './sequence-items.js';

/**
 * `groupby(attribute, default=none, case_sensitive=false)`: (grouper, list)
 * tuples sorted by the key, each with `.grouper` and `.list` as Jinja's are.
 */
function groupby(value: unknown, ...args: unknown[]): unknown[] {
  const { positional, keywords } = splitKeywordArgs(args);
  const attribute = keywords.attribute ?? positional[0];
  const fallback = keywords.default ?? positional[1];
  const caseSensitive = Boolean(keywords.case_sensitive ?? positional[2] ?? false);
  const raw = (item: unknown) => {
    const found = attributePath(item, attribute);
    return found === undefined ? fallback : found;
  };
  const key = (item: unknown) => comparisonKey(raw(item), caseSensitive);
  const sorted = [...sequenceItems(value)].sort((a, b) => compareKeys(key(a), key(b)));
  const groups: unknown[][] = [];
  let current: unknown[] | undefined;
  let currentKey: unknown;
  for (const item of sorted) {
    const k = key(item);
    if (!current || compareKeys(k, currentKey) !== 0) {
      current = [];
      currentKey = k;
      groups.push(current);
    }
    current.push(item);
  }
  return groups.map((members) => {
    const group = tuple([raw(members[0]), members]);
    Object.defineProperties(group, { grouper: { value: group[0] }, list: { value: members } });
    return group;
  });
}

/** `batch(linecount, fill_with=none)`: lists of linecount items, the last filled up when fill_with is given. */
function batch(value: unknown, ...args: unknown[]): unknown[][] {
  const { positional, keywords } = splitKeywordArgs(args);
  const size = Math.max(1, Number(keywords.linecount ?? positional[0]));
  const fill = keywords.fill_with ?? positional[1];
  const out: unknown[][] = [];
  const all = sequenceItems(value);
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  const last = out[out.length - 1];
  if (last && fill !== undefined && fill !== null) while (last.length < size) last.push(fill);
  return out;
}

/** `slice(slices, fill_with=none)`: the items in `slices` columns, the first ones one longer. */
function slice(value: unknown, ...args: unknown[]): unknown[][] {
  const { positional, keywords } = splitKeywordArgs(args);
  const slices = Number(keywords.slices ?? positional[0]);
  const fill = keywords.fill_with ?? positional[1];
  const all = sequenceItems(value);
  const per = Math.floor(all.length / slices);
  const withExtra = all.length % slices;
  const out: unknown[][] = [];
  let offset = 0;
  for (let n = 0; n < slices; n++) {
    const start = offset + n * per;
    if (n < withExtra) offset += 1;
    const part = all.slice(start, offset + (n + 1) * per);
    if (fill !== undefined && fill !== null && n >= withExtra) part.push(fill);
    out.push(part);
  }
  return out;
}

export const GROUPING_FILTERS: Readonly<Record<string, (...args: never[]) => unknown>> = { groupby, batch, slice };

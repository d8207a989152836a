import { splitKeywordArgs } from '../../keyword-args.js';
import { isPlainDict, tuple } from '../python-repr.js';
import { attributePath, comparisonKey } from './attribute-path.js';
import { compareKeys, sequenceItems } from './sequence-items.js';

/** `sort(reverse=false, case_sensitive=false, attribute=none)`; attribute may name several: 'a,b'. */
function sort(value: unknown, ...args: unknown[]): unknown[] {
  const { positional, keywords } = splitKeywordArgs(args);
  const reverse = Boolean(keywords.reverse ?? positional[0] ?? false);
  const caseSensitive = Boolean(keywords.case_sensitive ?? positional[1] ?? false);
  const attribute = keywords.attribute ?? positional[2];
  const paths = attribute === undefined || attribute === null ? [] : typeof attribute === 'string' ? attribute.split(',').map((p) => p.trim()) : [attribute];
  const key = (item: unknown) => (paths.length === 0 ? comparisonKey(item, caseSensitive) : paths.map((p) => comparisonKey(attributePath(item, p), caseSensitive)));
  // Stable, as Python's sort; reversed order keeps equal items in place, as reverse=True does.
  return [...sequenceItems(value)].sort((a, b) => compareKeys(key(a), key(b)) * (reverse ? -1 : 1));
}

/** `dictsort(case_sensitive=false, by='key', reverse=false)`: a dict's (key, value) tuples in order. */
function dictsort(value: unknown, ...args: unknown[]): unknown[] {
  const { positional, keywords } = splitKeywordArgs(args);
  const caseSensitive = Boolean(keywords.case_sensitive ?? positional[0] ?? false);
  const by = String(keywords.by ?? positional[1] ?? 'key');
  const reverse = Boolean(keywords.reverse ?? positional[2] ?? false);
  if (by !== 'key' && by !== 'value') throw new Error('You can only sort by either "key" or "value"');
  const entries = value instanceof Map ? [...value.entries()] : isPlainDict(value) ? Object.entries(value) : [];
  const index = by === 'key' ? 0 : 1;
  return entries
    .sort((a, b) => compareKeys(comparisonKey(a[index], caseSensitive), comparisonKey(b[index], caseSensitive)) * (reverse ? -1 : 1))
    .map((e) => tuple(e));
}

export const SORTING_FILTERS: Readonly<Record<string, (...args: never[]) => unknown>> = { sort, dictsort };

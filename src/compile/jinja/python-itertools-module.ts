import { splitKeywordArgs } from '../keyword-args.js';
import { callableNamespace } from './callable-namespaces.js';
import { sequenceItems } from './filters/sequence-items.js';
import { tuple } from './python-repr.js';
import { MAX_LIST_ITEMS } from './resource-limits.js';
import { SandboxError } from './sandbox-policy.js';

/**
 * dbt's `modules.itertools`: the functions dbt exports (count, cycle, repeat,
 * accumulate, chain, compress, islice, starmap, tee, zip_longest, product,
 * permutations, combinations, combinations_with_replacement). Finite ones
 * give lists (of tuples where Python gives tuples); the endless ones (count,
 * cycle, repeat without times) give an iterable that stops with the
 * sandbox's error after MAX_LIST_ITEMS items, so `count() | list` cannot
 * hang a compile, while `islice(count(), 3)` works.
 */

function* bounded(next: (i: number) => unknown, name: string): Generator<unknown> {
  for (let i = 0; ; i++) {
    if (i >= MAX_LIST_ITEMS) throw new SandboxError(`itertools.${name}() is endless: the template sandbox stops it after ${MAX_LIST_ITEMS} items (use islice)`);
    yield next(i);
  }
}

/** The items of an iterable, lazily (endless iterables stay lazy). */
function* walk(value: unknown): Generator<unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Symbol.iterator in value) yield* value as Iterable<unknown>;
  else yield* sequenceItems(value);
}

function combinations(pool: unknown[], r: number, withReplacement: boolean): unknown[][] {
  const out: unknown[][] = [];
  const pick = (start: number, chosen: unknown[]) => {
    if (chosen.length === r) {
      out.push(tuple([...chosen]));
      return;
    }
    for (let i = start; i < pool.length; i++) pick(withReplacement ? i : i + 1, [...chosen, pool[i]]);
  };
  if (r >= 0 && (withReplacement ? pool.length > 0 || r === 0 : r <= pool.length)) pick(0, []);
  return out;
}

function permutations(pool: unknown[], r: number): unknown[][] {
  const out: unknown[][] = [];
  const pick = (used: boolean[], chosen: unknown[]) => {
    if (chosen.length === r) {
      out.push(tuple([...chosen]));
      return;
    }
    pool.forEach((item, i) => {
      if (used[i]) return;
      used[i] = true;
      pick(used, [...chosen, item]);
      used[i] = false;
    });
  };
  if (r >= 0 && r <= pool.length) pick(pool.map(() => false), []);
  return out;
}

function product(...args: unknown[]): unknown[][] {
  const { positional, keywords } = splitKeywordArgs(args);
  const pools = positional.map((p) => [...walk(p)]);
  const all = Array.from({ length: Number(keywords.repeat ?? 1) }, () => pools).flat();
  let out: unknown[][] = [[]];
  for (const pool of all) {
    out = out.flatMap((prefix) => pool.map((item) => [...prefix, item]));
    if (out.length > MAX_LIST_ITEMS) throw new SandboxError(`itertools.product() would make more than ${MAX_LIST_ITEMS} items`);
  }
  return out.map((t) => tuple(t));
}

function islice(value: unknown, ...bounds: unknown[]): unknown[] {
  const [start, stop, step] = bounds.length === 1 ? [0, bounds[0], 1] : [bounds[0] ?? 0, bounds[1], bounds[2] ?? 1];
  const from = Number(start ?? 0);
  const to = stop === null || stop === undefined ? Infinity : Number(stop);
  const by = Number(step ?? 1);
  const out: unknown[] = [];
  let i = 0;
  for (const item of walk(value)) {
    if (i >= to) break;
    if (i >= from && (i - from) % by === 0) out.push(item);
    i++;
  }
  return out;
}

function zipLongest(...args: unknown[]): unknown[][] {
  const { positional, keywords } = splitKeywordArgs(args);
  const lists = positional.map((p) => [...walk(p)]);
  const fill = keywords.fillvalue ?? null;
  const n = Math.max(0, ...lists.map((l) => l.length));
  return Array.from({ length: n }, (_, i) => tuple(lists.map((l) => (i < l.length ? l[i] : fill))));
}

function accumulate(value: unknown, ...args: unknown[]): unknown[] {
  const { positional, keywords } = splitKeywordArgs(args);
  const fn = (keywords.func ?? positional[0]) as ((a: unknown, b: unknown) => unknown) | undefined | null;
  const initial = keywords.initial;
  const out: unknown[] = [];
  let total: unknown = initial;
  let started = initial !== undefined && initial !== null;
  if (started) out.push(total);
  for (const item of walk(value)) {
    total = started ? (typeof fn === 'function' ? fn(total, item) : (total as number) + (item as number)) : item;
    started = true;
    out.push(total);
  }
  return out;
}

const chain = callableNamespace((...iterables: unknown[]) => iterables.flatMap((it) => [...walk(it)]), {
  from_iterable: (iterables: unknown) => [...walk(iterables)].flatMap((it) => [...walk(it)]),
});

export function itertoolsModule(): Record<string, unknown> {
  return {
    count: (start: unknown = 0, step: unknown = 1) => bounded((i) => Number(start) + i * Number(step), 'count'),
    cycle: (value: unknown) => {
      const items = [...walk(value)];
      return items.length === 0 ? [] : bounded((i) => items[i % items.length], 'cycle');
    },
    repeat: (value: unknown, times?: unknown) => (times === undefined || times === null ? bounded(() => value, 'repeat') : Array.from({ length: Math.max(0, Number(times)) }, () => value)),
    accumulate,
    chain,
    compress: (data: unknown, selectors: unknown) => {
      const flags = [...walk(selectors)];
      return [...walk(data)].filter((_d, i) => i < flags.length && Boolean(flags[i]));
    },
    islice,
    starmap: (fn: unknown, value: unknown) => [...walk(value)].map((args) => (fn as (...a: unknown[]) => unknown)(...[...walk(args)])),
    tee: (value: unknown, n: unknown = 2) => {
      const items = [...walk(value)];
      return tuple(Array.from({ length: Number(n) }, () => [...items]));
    },
    zip_longest: zipLongest,
    product,
    permutations: (value: unknown, r?: unknown) => {
      const pool = [...walk(value)];
      return permutations(pool, r === undefined || r === null ? pool.length : Number(r));
    },
    combinations: (value: unknown, r: unknown) => combinations([...walk(value)], Number(r), false),
    combinations_with_replacement: (value: unknown, r: unknown) => combinations([...walk(value)], Number(r), true),
  };
}

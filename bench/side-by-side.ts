/**
 * Measure things side by side on a noisy machine: interleave them, rotating
 * the order every round so drift and neighbours' load hit each alike,
 * repeat, and compare medians.
 */

/** One measured thing: does its work once and returns the milliseconds it took. */
export type Measured = () => Promise<number> | number;

export interface Interleaved<K extends string> {
  /** Milliseconds of each repeat, per measured thing. */
  readonly samples: Record<K, number[]>;
  readonly medians: Record<K, number>;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Time a synchronous or asynchronous piece of work, in milliseconds. */
export async function timed(work: () => unknown): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

/**
 * Run every measured thing `repeats` times, interleaved (round r starts at
 * thing r mod n), after `warmup` unmeasured rounds.
 */
export async function sideBySide<K extends string>(things: Record<K, Measured>, repeats: number, warmup = 1): Promise<Interleaved<K>> {
  const keys = Object.keys(things) as K[];
  for (let i = 0; i < warmup; i++) for (const k of keys) await things[k]();
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < repeats; round++) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[(round + j) % keys.length]!;
      samples[k].push(await things[k]());
    }
  }
  const medians = Object.fromEntries(keys.map((k) => [k, median(samples[k])])) as Record<K, number>;
  return { samples, medians };
}

/**
 * Like sideBySide, for things compared in pairs (an engine's run and its bare
 * SQL): each group runs as a block, in its order in even rounds and reversed
 * in odd ones (the parity shifts with the group's place), so each member of
 * a pair is first, right after whatever came before, as often as it is
 * second, right after its partner. A rotation of one long list puts one
 * member after the other in almost every round, and whichever follows a
 * large scan (a 1 s rebuild) pays for it. The rounds are rounded up to an
 * even number for that balance.
 */
export async function pairedSideBySide<K extends string>(things: Record<K, Measured>, groups: readonly (readonly K[])[], repeats: number, warmup = 1): Promise<Interleaved<K>> {
  const keys = groups.flat();
  const missing = (Object.keys(things) as K[]).filter((k) => !keys.includes(k));
  if (missing.length > 0) throw new Error(`pairedSideBySide: ${missing.join(', ')} in no group`);
  for (let i = 0; i < warmup; i++) for (const k of keys) await things[k]();
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const rounds = repeats + (repeats % 2);
  for (let round = 0; round < rounds; round++) {
    for (const [g, group] of groups.entries()) {
      const ordered = (round + g) % 2 === 0 ? group : [...group].reverse();
      for (const k of ordered) samples[k].push(await things[k]());
    }
  }
  const medians = Object.fromEntries(keys.map((k) => [k, median(samples[k])])) as Record<K, number>;
  return { samples, medians };
}

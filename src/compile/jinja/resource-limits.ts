import { SandboxError } from './sandbox-policy.js';

/** The sandbox's limits on what one template may make (dbt's sandbox blocks ranges over 100,000 items). */
export const MAX_RANGE = 100_000;
/** Macros calling macros deeper than this stop with a clear error (well before JavaScript's stack runs out). */
export const MAX_MACRO_DEPTH = 250;
/** The longest text `'x' * n`, zfill and the like may build. */
export const MAX_TEXT_LENGTH = 10_000_000;
/** The most items `[x] * n` may build. */
export const MAX_LIST_ITEMS = 1_000_000;

/** Python's range(stop) / range(start, stop[, step]), refused past MAX_RANGE items. */
export function sandboxedRange(start: unknown, stop?: unknown, step?: unknown): number[] {
  let from = Number(start);
  let to = Number(stop);
  if (stop === undefined) {
    to = from;
    from = 0;
  }
  const by = step === undefined ? 1 : Number(step);
  if (!Number.isFinite(from) || !Number.isFinite(to) || !Number.isFinite(by)) throw new SandboxError(`range() arguments must be numbers, got range(${[start, stop, step].filter((a) => a !== undefined).map(String).join(', ')})`);
  if (by === 0) throw new SandboxError('range() arg 3 must not be zero');
  const count = Math.max(0, Math.ceil((to - from) / by));
  if (count > MAX_RANGE) throw new SandboxError(`range too big: ${count} items; the template sandbox allows at most ${MAX_RANGE} (as dbt's does)`);
  return Array.from({ length: count }, (_, i) => from + i * by);
}

/** Refuse text longer than MAX_TEXT_LENGTH before it is built. */
export function checkTextLength(length: number, what: string): void {
  if (length > MAX_TEXT_LENGTH) throw new SandboxError(`${what} would make ${length} characters; the template sandbox allows at most ${MAX_TEXT_LENGTH}`);
}

/** Refuse a list longer than MAX_LIST_ITEMS before it is built. */
export function checkListLength(length: number, what: string): void {
  if (length > MAX_LIST_ITEMS) throw new SandboxError(`${what} would make ${length} items; the template sandbox allows at most ${MAX_LIST_ITEMS}`);
}

let depth = 0;

/** Run one macro call, counting how deep macro calls are nested. */
export function withinMacroDepth<T>(call: () => T): T {
  if (depth >= MAX_MACRO_DEPTH) throw new SandboxError(`maximum macro recursion depth exceeded: macros called macros ${MAX_MACRO_DEPTH} deep (a macro that calls itself without end?)`);
  depth += 1;
  try {
    return call();
  } finally {
    depth -= 1;
  }
}

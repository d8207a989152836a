import { SandboxError } from './sandbox-policy.js';

/**
 * `x[start:stop:step]` as Python slices: bounds clamped to the sequence
 * (a stop past the end is the end: nunjucks' own slice added an undefined
 * item there, and dbt_project_evaluator's batched inserts then wrote an
 * empty `()` row), negative bounds counted from the end, a string sliced to
 * a string. Anything else that is not a list is sliced as a list of nothing.
 */
export function pythonSlice(obj: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  const by = step === null || step === undefined ? 1 : Number(step);
  if (!Number.isInteger(by)) throw new SandboxError(`slice indices must be integers, got step ${String(step)}`);
  if (by === 0) throw new SandboxError('slice step cannot be zero');
  const items: readonly unknown[] | string = typeof obj === 'string' ? obj : Array.isArray(obj) ? obj : [];
  const length = items.length;
  const bound = (value: unknown, fallback: number, low: number, high: number): number => {
    if (value === null || value === undefined) return fallback;
    let n = Number(value);
    if (!Number.isInteger(n)) throw new SandboxError(`slice indices must be integers, got ${String(value)}`);
    if (n < 0) n += length;
    return Math.min(Math.max(n, low), high);
  };
  const from = by > 0 ? bound(start, 0, 0, length) : bound(start, length - 1, -1, length - 1);
  const to = by > 0 ? bound(stop, length, 0, length) : bound(stop, -1, -1, length - 1);
  const picked: unknown[] = [];
  for (let i = from; by > 0 ? i < to : i > to; i += by) picked.push(items[i]);
  return typeof items === 'string' ? picked.join('') : picked;
}

/**
 * A deep copy of a value isPlainJson accepts, as structuredClone makes it
 * (own `__proto__` keys stay own keys, -0 stays -0, null-prototype objects
 * become plain objects), without structuredClone's serialisation: the parse
 * cache copies every fresh capture (10,000 at 10,000 models).
 */
export function plainJsonCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainJsonCopy) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = plainJsonCopy((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}

import { isSafeString } from '../nunjucks-internals.js';

const text = (v: unknown): unknown => (isSafeString(v) ? String(v) : v);

/** dbt's `as_bool`: 'true'/'True' (and booleans) become booleans; anything else is left as is. */
export function asBool(value: unknown): unknown {
  const v = text(value);
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  return v;
}

/** dbt's `as_number`: numeric text becomes a number. */
export function asNumber(value: unknown): unknown {
  const v = text(value);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return v;
}

/** dbt's `as_text`: the value's text (none becomes ''). */
export function asText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** dbt's `as_native`: JSON-like literal text becomes its value. */
export function asNative(value: unknown): unknown {
  const v = text(value);
  if (typeof v !== 'string') return v;
  const trimmed = v.trim();
  if (/^(True|False|None)$/.test(trimmed)) return trimmed === 'True' ? true : trimmed === 'False' ? false : null;
  try {
    return JSON.parse(trimmed.replace(/'/g, '"'));
  } catch {
    return v;
  }
}

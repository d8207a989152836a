import { splitKeywordArgs } from '../../keyword-args.js';
import { isSafeString } from '../nunjucks-internals.js';

const BASE_PREFIX: Readonly<Record<string, number>> = { '0x': 16, '0o': 8, '0b': 2 };

/** Python's int(text, base) for a string, or undefined when it does not parse. */
function parseInteger(raw: string, base: number): number | undefined {
  let text = raw.trim().replace(/_/g, '').toLowerCase();
  let sign = 1;
  if (text.startsWith('-') || text.startsWith('+')) {
    sign = text.startsWith('-') ? -1 : 1;
    text = text.slice(1);
  }
  let radix = base;
  const prefix = BASE_PREFIX[text.slice(0, 2)];
  if (prefix !== undefined && (base === 0 || base === prefix)) {
    radix = prefix;
    text = text.slice(2);
  } else if (base === 0) radix = 10;
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, radix);
  if (text === '' || [...text].some((c) => !digits.includes(c))) return undefined;
  return sign * parseInt(text, radix);
}

/** `int(default=0, base=10)`: numeric text (also '3.7' via float), numbers truncated, the default otherwise. */
function int(value: unknown, ...args: unknown[]): unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  const fallback = keywords.default ?? positional[0] ?? 0;
  const base = Number(keywords.base ?? positional[1] ?? 10);
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : fallback;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || isSafeString(value)) {
    const parsed = parseInteger(String(value), base);
    if (parsed !== undefined) return parsed;
    const asFloat = parseFloatText(String(value));
    return asFloat === undefined ? fallback : Math.trunc(asFloat);
  }
  return fallback;
}

function parseFloatText(text: string): number | undefined {
  const t = text.trim().replace(/_/g, '');
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return NaN;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : undefined;
}

/** `float(default=0.0)`. */
function float(value: unknown, ...args: unknown[]): unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  const fallback = keywords.default ?? positional[0] ?? 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || isSafeString(value)) return parseFloatText(String(value)) ?? fallback;
  return fallback;
}

/** Python's round(x, digits): the nearest, an exact tie to the even neighbour. */
function roundHalfEven(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const fixed = x.toFixed(Math.max(0, Math.min(100, digits)));
  if (digits < 0 || digits > 100) return Number(fixed);
  // The exact decimal value of x, to find a true tie (2.5, 1.25; not 2.675, which is 2.67499...).
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 30));
  const rest = exact.slice(exact.indexOf('.') + 1 + digits);
  if (!/^50*$/.test(rest)) return Number(fixed);
  const scaled = Math.trunc(Math.abs(x) * 10 ** digits);
  const down = scaled / 10 ** digits;
  const up = (scaled + 1) / 10 ** digits;
  return Math.sign(x) * (scaled % 2 === 0 ? down : up);
}

/** `round(precision=0, method='common')`: common as Python's round, or 'floor' / 'ceil'. */
function round(value: unknown, ...args: unknown[]): number {
  const { positional, keywords } = splitKeywordArgs(args);
  const precision = Number(keywords.precision ?? positional[0] ?? 0);
  const method = String(keywords.method ?? positional[1] ?? 'common');
  const x = Number(value);
  if (method === 'common') return roundHalfEven(x, precision);
  const scale = 10 ** precision;
  if (method === 'floor') return Math.floor(x * scale) / scale;
  if (method === 'ceil') return Math.ceil(x * scale) / scale;
  throw new Error('method must be common, ceil or floor');
}

export const NUMBER_FILTERS: Readonly<Record<string, (...args: never[]) => unknown>> = { int, float, round };

import { splitKeywordArgs } from '../../keyword-args.js';
import { isSafeString } from '../nunjucks-internals.js';
import { isPlainDict, pythonStr } from '../python-repr.js';

/** `trim(chars=none)`: whitespace, or the given characters, off both ends. */
function trim(value: unknown, chars?: unknown): string {
  const text = pythonStr(value);
  if (chars === undefined || chars === null) return text.trim();
  const set = new Set(String(chars));
  let a = 0;
  let b = text.length;
  while (a < b && set.has(text[a]!)) a++;
  while (b > a && set.has(text[b - 1]!)) b--;
  return text.slice(a, b);
}

/** `truncate(length=255, killwords=false, end='...', leeway=5)`, as Jinja cuts text. */
function truncate(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const text = pythonStr(value);
  const length = Number(keywords.length ?? positional[0] ?? 255);
  const killwords = Boolean(keywords.killwords ?? positional[1] ?? false);
  const end = String(keywords.end ?? positional[2] ?? '...');
  const leeway = Number(keywords.leeway ?? positional[3] ?? 5);
  if (text.length <= length + leeway) return text;
  if (killwords) return text.slice(0, length - end.length) + end;
  const head = text.slice(0, length - end.length);
  const cut = head.lastIndexOf(' ');
  return (cut < 0 ? head : head.slice(0, cut)) + end;
}

/** Python's quote(): everything but letters, digits and `_.-~` (and `safe`) percent-encoded as UTF-8. */
function quote(text: string, safe: string): string {
  return [...text]
    .map((c) => (/[A-Za-z0-9_.\-~]/.test(c) || safe.includes(c) ? c : [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')))
    .join('');
}

const queryPart = (v: unknown) => quote(pythonStr(v), ' ').replace(/ /g, '+');

/** `urlencode`: text quoted for a URL path; a dict or pairs as a query string (spaces as '+'). */
function urlencode(value: unknown): string {
  if (typeof value === 'string' || isSafeString(value)) return quote(String(value), '/');
  const pairs = isPlainDict(value) ? Object.entries(value) : Array.isArray(value) ? (value as unknown[][]) : undefined;
  if (!pairs) return quote(pythonStr(value), '/');
  return pairs.map(([k, v]) => `${queryPart(k)}=${queryPart(v)}`).join('&');
}

export const TEXT_FILTERS: Readonly<Record<string, (...args: never[]) => unknown>> = { trim, truncate, urlencode };

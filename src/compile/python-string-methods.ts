import nunjucks from 'nunjucks';
import { convertField, formatWithSpec } from './jinja/python-format-spec.js';
import { pythonStr, tuple } from './jinja/python-repr.js';
import { readAttribute } from './jinja/sandbox-policy.js';
import { checkTextLength } from './jinja/resource-limits.js';

type Fn = (this: string, ...args: unknown[]) => unknown;

const stripChars = (s: string, chars: unknown, left: boolean, right: boolean): string => {
  if (chars === undefined || chars === null) return left && right ? s.trim() : left ? s.trimStart() : s.trimEnd();
  const set = new Set(String(chars));
  let a = 0;
  let b = s.length;
  while (left && a < b && set.has(s[a]!)) a++;
  while (right && b > a && set.has(s[b - 1]!)) b--;
  return s.slice(a, b);
};

const splitPython = (s: string, sep: unknown, maxsplit: unknown): string[] => {
  const limit = typeof maxsplit === 'number' && maxsplit >= 0 ? maxsplit : Infinity;
  if (sep === undefined || sep === null) {
    const parts = s.trim().split(/\s+/).filter((p) => p !== '');
    if (limit === Infinity || parts.length <= limit + 1) return parts;
    const head = parts.slice(0, limit);
    let rest = s.trim();
    for (const h of head) rest = rest.slice(rest.indexOf(h) + h.length).trimStart();
    return [...head, rest];
  }
  const all = s.split(String(sep));
  if (limit === Infinity || all.length <= limit + 1) return all;
  return [...all.slice(0, limit), all.slice(limit).join(String(sep))];
};

const matchesAny = (s: string, arg: unknown, test: (s: string, p: string) => boolean): boolean =>
  Array.isArray(arg) ? arg.some((p) => test(s, String(p))) : test(s, String(arg));

/** A field name's value: `0`, `name`, then `[key]` and `.attr` steps (`{0[a]}`, `{row.id}`). */
function fieldValue(name: string, next: () => unknown, args: readonly unknown[], keywords: Record<string, unknown>): unknown {
  const m = /^([^.[]*)(.*)$/.exec(name)!;
  const head = m[1]!;
  let value = head === '' ? next() : /^\d+$/.test(head) ? args[Number(head)] : Object.prototype.hasOwnProperty.call(keywords, head) ? keywords[head] : undefined;
  for (const step of m[2]!.matchAll(/\.([^.[]+)|\[([^\]]+)\]/g)) {
    const key = step[1] ?? (/^\d+$/.test(step[2]!) ? Number(step[2]) : step[2]!);
    value = readAttribute(value, key);
  }
  return value;
}

/** str.format: `{}`, `{0}`, `{name}`, `{0[key]}`, `{!r}` and format specs (`{:>8}`, `{:,.2f}`); keyword args arrive as a trailing object. */
function formatPython(this: string, ...args: unknown[]): string {
  const last = args[args.length - 1];
  const keywords = typeof last === 'object' && last !== null && (last as { __keywords?: boolean }).__keywords ? (args.pop() as Record<string, unknown>) : {};
  let auto = 0;
  const next = () => args[auto++];
  return this.replace(/\{\{|\}\}|\{([^{}!:]*)(?:!([rsa]))?(?::([^{}]*))?\}/g, (m, field: string | undefined, conversion: string | undefined, spec: string | undefined) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    const value = convertField(fieldValue(field ?? '', next, args, keywords), conversion);
    return spec ? formatWithSpec(value, spec) : pythonStr(value);
  });
}

/** Python's str methods, for templates written for Jinja (dbt projects call them a lot). */
export const STRING_METHODS: Readonly<Record<string, Fn>> = {
  upper() { return this.toUpperCase(); },
  lower() { return this.toLowerCase(); },
  strip(chars) { return stripChars(this, chars, true, true); },
  lstrip(chars) { return stripChars(this, chars, true, false); },
  rstrip(chars) { return stripChars(this, chars, false, true); },
  split(sep, maxsplit) { return splitPython(this, sep, maxsplit); },
  replace(old, replacement, count) {
    if (typeof count !== 'number') return this.split(String(old)).join(String(replacement));
    let out = this;
    for (let i = 0; i < count; i++) out = out.replace(String(old), String(replacement));
    return out;
  },
  startswith(prefix) { return matchesAny(this, prefix, (s, p) => s.startsWith(p)); },
  endswith(suffix) { return matchesAny(this, suffix, (s, p) => s.endsWith(p)); },
  title() { return this.toLowerCase().replace(/(^|[^A-Za-z])([a-z])/g, (_m, a: string, b: string) => a + b.toUpperCase()); },
  capitalize() { return this.charAt(0).toUpperCase() + this.slice(1).toLowerCase(); },
  format: formatPython,
  join(items) { return (Array.isArray(items) ? items : [...String(items)]).map(String).join(this); },
  find(sub) { return this.indexOf(String(sub)); },
  count(sub) { return String(sub) === '' ? this.length + 1 : this.split(String(sub)).length - 1; },
  isdigit() { return /^\d+$/.test(this); },
  isalpha() { return /^[A-Za-z]+$/.test(this); },
  rsplit(sep, maxsplit) {
    const limit = typeof maxsplit === 'number' && maxsplit >= 0 ? maxsplit : Infinity;
    if (limit === Infinity || sep === undefined || sep === null) return splitPython(this, sep, limit === Infinity ? undefined : maxsplit);
    const all = this.split(String(sep));
    if (all.length <= limit + 1) return all;
    return [all.slice(0, all.length - limit).join(String(sep)), ...all.slice(all.length - limit)];
  },
  splitlines() { return this.split(/\r\n|\r|\n/).filter((line, i, lines) => i < lines.length - 1 || line !== ''); },
  swapcase() { return [...this].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''); },
  casefold() { return this.toLowerCase(); },
  index(sub) {
    const i = this.indexOf(String(sub));
    if (i < 0) throw new Error('ValueError: substring not found');
    return i;
  },
  rindex(sub) {
    const i = this.lastIndexOf(String(sub));
    if (i < 0) throw new Error('ValueError: substring not found');
    return i;
  },
  rfind(sub) { return this.lastIndexOf(String(sub)); },
  center(width, fill = ' ') {
    const w = Number(width);
    checkTextLength(w, 'center()');
    const total = Math.max(0, w - this.length);
    // Python's split of an odd padding: the extra space goes left when the width is odd.
    const left = Math.floor(total / 2) + (total & w & 1);
    return String(fill).repeat(left) + this + String(fill).repeat(total - left);
  },
  ljust(width, fill = ' ') {
    checkTextLength(Number(width), 'ljust()');
    return this.padEnd(Number(width), String(fill));
  },
  rjust(width, fill = ' ') {
    checkTextLength(Number(width), 'rjust()');
    return this.padStart(Number(width), String(fill));
  },
  partition(sep) {
    const i = this.indexOf(String(sep));
    return tuple(i < 0 ? [this.toString(), '', ''] : [this.slice(0, i), String(sep), this.slice(i + String(sep).length)]);
  },
  rpartition(sep) {
    const i = this.lastIndexOf(String(sep));
    return tuple(i < 0 ? ['', '', this.toString()] : [this.slice(0, i), String(sep), this.slice(i + String(sep).length)]);
  },
  removeprefix(prefix) { return this.startsWith(String(prefix)) ? this.slice(String(prefix).length) : this.toString(); },
  removesuffix(suffix) { return String(suffix) !== '' && this.endsWith(String(suffix)) ? this.slice(0, -String(suffix).length) : this.toString(); },
  isalnum() { return /^[\p{L}\p{N}]+$/u.test(this); },
  isupper() { return /\p{Lu}/u.test(this) && !/\p{Ll}/u.test(this); },
  islower() { return /\p{Ll}/u.test(this) && !/\p{Lu}/u.test(this); },
  isspace() { return /^\s+$/.test(this); },
  isnumeric() { return /^\p{N}+$/u.test(this); },
  isdecimal() { return /^\d+$/.test(this); },
  istitle() { return /\p{L}/u.test(this) && this.toString() === STRING_METHODS.title!.call(this); },
  zfill(width) {
    checkTextLength(Number(width), 'zfill()');
    return this.padStart(Number(width), '0');
  },
};

let installed = false;

/** Make `'x'.upper()`, `name.startswith('stg_')`, `'{}_{}'.format(a, b)` work in every template. */
export function installPythonStringMethods(): void {
  if (installed) return;
  installed = true;
  const runtime = (nunjucks as unknown as { runtime: { memberLookup: (obj: unknown, val: unknown, ...rest: unknown[]) => unknown; SafeString: new (s: string) => unknown } }).runtime;
  const original = runtime.memberLookup;
  runtime.memberLookup = function memberLookup(this: unknown, obj: unknown, val: unknown, ...rest: unknown[]) {
    if (rest.length < 2 && typeof val === 'string' && Object.prototype.hasOwnProperty.call(STRING_METHODS, val)) {
      if (typeof obj === 'string') return STRING_METHODS[val]!.bind(obj);
      if (obj instanceof runtime.SafeString) return STRING_METHODS[val]!.bind(String(obj));
    }
    const found = original.call(this, obj, val, ...rest);
    // A slice of text is text in Python ('2026-09-01'[0:4] is '2026'); Jinja compat gives a list of characters.
    if (rest.length >= 2 && Array.isArray(found) && (typeof obj === 'string' || obj instanceof runtime.SafeString)) return found.join('');
    return found;
  };
}

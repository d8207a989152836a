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

/** `indent(width=4, first=false, blank=false)`: every line after the first (and the first with first=true), blank lines only with blank=true. */
function indent(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const width = keywords.width ?? positional[0] ?? 4;
  const first = Boolean(keywords.first ?? positional[1] ?? false);
  const blank = Boolean(keywords.blank ?? positional[2] ?? false);
  const pad = typeof width === 'string' ? width : ' '.repeat(Number(width));
  const lines = pythonStr(value).split('\n');
  return lines.map((line, i) => ((i > 0 || first) && (blank || line.trim() !== '') ? pad + line : line)).join('\n');
}

/** Jinja's `title`: each word's first letter upper, the rest lower; words split at spaces, '-', and opening brackets. */
function title(value: unknown): string {
  return pythonStr(value)
    .split(/([-\s({[<]+)/)
    .map((part) => (part === '' ? '' : part[0]!.toUpperCase() + part.slice(1).toLowerCase()))
    .join('');
}

/** `wordwrap(width=79, break_long_words=true, wrapstring='\n')`: lines of at most width characters, as Python's textwrap. */
function wordwrap(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const width = Number(keywords.width ?? positional[0] ?? 79);
  const breakLong = Boolean(keywords.break_long_words ?? positional[1] ?? true);
  const wrap = String(keywords.wrapstring ?? positional[2] ?? '\n');
  const lines: string[] = [];
  let line = '';
  for (let word of pythonStr(value).split(/\s+/).filter((w) => w !== '')) {
    while (breakLong && word.length > width && line === '') {
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
      while (breakLong && line.length > width) {
        lines.push(line.slice(0, width));
        line = line.slice(width);
      }
    }
  }
  if (line !== '') lines.push(line);
  return lines.join(wrap);
}

/** `filesizeformat(binary=false)`: '1.2 MB', '13 Bytes'. */
function filesizeformat(value: unknown, binary: unknown = false): string {
  const bytes = Number(value);
  const base = binary ? 1024 : 1000;
  const units = binary ? ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'] : ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
  if (bytes === 1) return '1 Byte';
  if (bytes < base) return `${bytes} Bytes`;
  let unit = 0;
  for (let i = 0; i < units.length; i++) if (bytes >= base ** (i + 1)) unit = i;
  return `${(bytes / base ** (unit + 1)).toFixed(1)} ${units[unit]}`;
}

/** `replace(old, new, count=none)`. */
function replace(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const text = pythonStr(value);
  const from = pythonStr(positional[0]);
  const to = pythonStr(positional[1]);
  const count = keywords.count ?? positional[2];
  if (count === undefined || count === null || Number(count) < 0) return text.split(from).join(to);
  const parts = text.split(from);
  const n = Math.min(Number(count), parts.length - 1);
  return parts.slice(0, n + 1).join(to) + (n < parts.length - 1 ? from + parts.slice(n + 1).join(from) : '');
}

export const TEXT_FILTERS: Readonly<Record<string, (...args: never[]) => unknown>> = { trim, truncate, urlencode, indent, title, wordwrap, filesizeformat, replace };

import { pythonRegex, RE_FLAGS } from './python-regex.js';

/**
 * A small `modules.re`: match, search, fullmatch, findall, sub, split,
 * escape and compile, with Python's flags (re.IGNORECASE, re.VERBOSE, ...,
 * or inline `(?ix)`) and named groups; the pattern otherwise in JavaScript's
 * regex syntax.
 */
export function reModule(): Record<string, unknown> {
  const toMatch = (m: RegExpExecArray | null) =>
    m && { group: (i = 0) => m[Number(i)] ?? null, groups: () => m.slice(1), start: () => m.index, end: () => m.index + m[0].length };
  const anchored = (pattern: unknown, flags: unknown, end: boolean): RegExp => {
    const re = pythonRegex(pattern, flags);
    return new RegExp(`^(?:${re.source})${end ? '$' : ''}`, re.flags);
  };
  const api = {
    match: (pattern: unknown, text: unknown, flags?: unknown) => toMatch(anchored(pattern, flags, false).exec(String(text))),
    fullmatch: (pattern: unknown, text: unknown, flags?: unknown) => toMatch(anchored(pattern, flags, true).exec(String(text))),
    search: (pattern: unknown, text: unknown, flags?: unknown) => toMatch(pythonRegex(pattern, flags).exec(String(text))),
    findall: (pattern: unknown, text: unknown, flags?: unknown) =>
      [...String(text).matchAll(pythonRegex(pattern, flags, 'g'))].map((m) => (m.length > 2 ? m.slice(1) : (m[1] ?? m[0]))),
    sub: (pattern: unknown, replacement: unknown, text: unknown, count?: unknown, flags?: unknown) => {
      // count and flags may come as keywords (count=1, flags=re.I): one keyword object in count's place.
      const keywords = count !== null && typeof count === 'object' ? (count as { count?: unknown; flags?: unknown }) : undefined;
      const n = Number((keywords ? keywords.count : count) ?? 0);
      return String(text).replace(pythonRegex(pattern, keywords ?? flags, n > 0 ? '' : 'g'), String(replacement).replace(/\\(\d)/g, '$$$1'));
    },
    split: (pattern: unknown, text: unknown, _maxsplit?: unknown, flags?: unknown) => String(text).split(pythonRegex(pattern, flags)),
    escape: (text: unknown) => String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  };
  return {
    ...api,
    ...RE_FLAGS,
    // re.compile(p, flags): an object with the same methods, the pattern and flags bound.
    compile: (pattern: unknown, flags?: unknown) => ({
      pattern: String(pattern),
      match: (text: unknown) => api.match(pattern, text, flags),
      fullmatch: (text: unknown) => api.fullmatch(pattern, text, flags),
      search: (text: unknown) => api.search(pattern, text, flags),
      findall: (text: unknown) => api.findall(pattern, text, flags),
      sub: (replacement: unknown, text: unknown, count?: unknown) => api.sub(pattern, replacement, text, count, flags),
      split: (text: unknown) => api.split(pattern, text, undefined, flags),
    }),
  };
}

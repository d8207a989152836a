/** A small `modules.re`: match, search, fullmatch, findall, sub, split, escape (JavaScript regex syntax). */
export function reModule(): Record<string, unknown> {
  const toMatch = (m: RegExpExecArray | null) =>
    m && { group: (i = 0) => m[Number(i)] ?? null, groups: () => m.slice(1), start: () => m.index, end: () => m.index + m[0].length };
  return {
    match: (pattern: unknown, text: unknown) => toMatch(new RegExp(`^(?:${String(pattern)})`).exec(String(text))),
    fullmatch: (pattern: unknown, text: unknown) => toMatch(new RegExp(`^(?:${String(pattern)})$`).exec(String(text))),
    search: (pattern: unknown, text: unknown) => toMatch(new RegExp(String(pattern)).exec(String(text))),
    findall: (pattern: unknown, text: unknown) =>
      [...String(text).matchAll(new RegExp(String(pattern), 'g'))].map((m) => (m.length > 2 ? m.slice(1) : (m[1] ?? m[0]))),
    sub: (pattern: unknown, replacement: unknown, text: unknown) =>
      String(text).replace(new RegExp(String(pattern), 'g'), String(replacement).replace(/\\(\d)/g, '$$$1')),
    split: (pattern: unknown, text: unknown) => String(text).split(new RegExp(String(pattern))),
    escape: (text: unknown) => String(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  };
}

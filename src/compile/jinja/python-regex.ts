/** Python's `re` flag values (re.IGNORECASE is 2, ...), as templates pass them. */
export const RE_FLAGS = { I: 2, IGNORECASE: 2, M: 8, MULTILINE: 8, S: 16, DOTALL: 16, X: 64, VERBOSE: 64, A: 256, ASCII: 256, U: 32, UNICODE: 32 } as const;

/**
 * A Python regular expression as JavaScript reads it: inline flags at its
 * start (`(?ix)`) and the flags argument become JavaScript's (i, m, s; x
 * strips the pattern's unescaped whitespace and `#` comments outside
 * character classes, as Python's verbose mode does), and named groups
 * `(?P<name>...)` / `(?P=name)` become `(?<name>...)` / `\k<name>`.
 */
export function pythonRegex(pattern: unknown, flags: unknown, extra = ''): RegExp {
  let text = String(pattern);
  // A keyword argument (`flags=re.I`) arrives as the keyword object.
  const given = flags !== null && typeof flags === 'object' ? (flags as { flags?: unknown }).flags : flags;
  let bits = typeof given === 'number' ? given : 0;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(text);
  if (inline) {
    text = text.slice(inline[0].length);
    for (const f of inline[1]!) bits |= f === 'i' ? RE_FLAGS.I : f === 'm' ? RE_FLAGS.M : f === 's' ? RE_FLAGS.S : f === 'x' ? RE_FLAGS.X : 0;
  }
  if (bits & RE_FLAGS.X) text = withoutVerboseSpace(text);
  text = text.replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>');
  const js = `${bits & RE_FLAGS.I ? 'i' : ''}${bits & RE_FLAGS.M ? 'm' : ''}${bits & RE_FLAGS.S ? 's' : ''}${extra}`;
  return new RegExp(text, [...new Set(js)].join(''));
}

/** Python's verbose mode: whitespace and `#...` comments dropped, except escaped or inside [...]. */
function withoutVerboseSpace(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      out += c;
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(c)) out += c;
  }
  return out;
}

/** True when `pattern` holds a shell wildcard: * ? [ ]. */
export function hasGlobChars(pattern: string): boolean {
  return /[*?[\]]/.test(pattern);
}

/**
 * A regular expression matching the whole string against the shell-style
 * pattern, like Python's fnmatchcase: `*`, `?`, `[abc]`, `[!abc]`. With
 * `paths`, `*` and `?` stay within one path segment and `**` crosses them.
 */
export function globToRegExp(pattern: string, options: { paths?: boolean } = {}): RegExp {
  const paths = options.paths ?? false;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') {
      if (paths && pattern[i + 1] === '*') {
        i++;
        if (pattern[i + 1] === '/') {
          i++;
          source += '(?:.*/)?';
        } else {
          source += '.*';
        }
      } else {
        source += paths ? '[^/]*' : '.*';
      }
    } else if (char === '?') {
      source += paths ? '[^/]' : '.';
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      if (end < 0) {
        source += '\\[';
      } else {
        let body = pattern.slice(i + 1, end);
        let negate = false;
        if (body.startsWith('!')) {
          negate = true;
          body = body.slice(1);
        }
        body = body.replace(/[\\\]^]/g, (c) => `\\${c}`);
        source += `[${negate ? '^' : ''}${body}]`;
        i = end;
      }
    } else {
      source += char.replace(/[.+^${}()|\\\]]/g, (c) => `\\${c}`);
    }
  }
  return new RegExp(`^${source}$`);
}

/** Index of the `]` closing the class opened at `start`, or -1. A `]` right after `[` or `[!` is literal. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '!') i++;
  if (pattern[i] === ']') i++;
  return pattern.indexOf(']', i);
}

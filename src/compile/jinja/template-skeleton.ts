/**
 * A template's skeleton: its source with the text between tags, the
 * contents of string literals in tags and the insides of comments replaced
 * by numbered markers. Models written alike have one skeleton (they differ
 * in names, texts and comments), so the skeleton is parsed once and each
 * template's own values are put back into its tree's slots by substitution
 * (shared-template-code.ts), instead of nunjucks parsing every template.
 *
 * What is masked is opaque to nunjucks' lexer and parser: a text's core
 * (what is left after its leading and trailing whitespace, which stay,
 * since whitespace control trims them) holds no tag start (the scan ends a
 * text there, as the lexer does) and no `#}` (refused: the lexer fails on
 * it); a string's content holds no backslash and no quote of its kind; a
 * comment's inside keeps its first and last character (the parser reads the
 * `-` of whitespace control there). So the skeleton lexes into the same
 * tokens as the template, with other values and positions. Where this scan
 * could disagree with the lexer (nunjucks' `r/.../` regex literals, an
 * unclosed tag or string) it gives no skeleton; anything else it gets wrong
 * shows in the skeleton's tree (a marker outside the slot it was meant for,
 * or not exactly once), which the caller checks before trusting it.
 */

/** Markers are `\uE000<k>\uE001` (private-use characters; a source holding one has no skeleton). */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

export type MarkKind = 'text' | 'string' | 'comment';

export interface Skeleton {
  readonly text: string;
  /** Marker k stands for cores[k]. */
  readonly cores: readonly string[];
  readonly kinds: readonly MarkKind[];
  /** Where marker k ends (line, column; 0-based, lines counted by '\n' as nunjucks counts them) in the skeleton, then in the template. */
  readonly ends: Int32Array;
}

const WHITESPACE_START = /^\s*/;
const WHITESPACE_END = /\s*$/;

/** The skeleton of a (preprocessed) template, or null when the scan cannot be sure of it. */
export function skeletonOf(source: string): Skeleton | null {
  if (source.includes(MARK_START) || source.includes(MARK_END)) return null;
  const pieces: string[] = [];
  const cores: string[] = [];
  const kinds: MarkKind[] = [];
  const ends: number[] = [];
  // Lines and columns as text is added: in the skeleton (s) and in the template (t).
  let sLine = 0;
  let sCol = 0;
  let tLine = 0;
  let tCol = 0;
  const advance = (text: string, inSkeleton: boolean, inTemplate: boolean): void => {
    const last = text.lastIndexOf('\n');
    let lines = 0;
    if (last >= 0) for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines += 1;
    if (inSkeleton) {
      if (last >= 0) {
        sLine += lines;
        sCol = text.length - last - 1;
      } else sCol += text.length;
    }
    if (inTemplate) {
      if (last >= 0) {
        tLine += lines;
        tCol = text.length - last - 1;
      } else tCol += text.length;
    }
  };
  const verbatim = (text: string): void => {
    if (text === '') return;
    pieces.push(text);
    advance(text, true, true);
  };
  const mask = (core: string, kind: MarkKind): void => {
    const marker = `${MARK_START}${cores.length}${MARK_END}`;
    cores.push(core);
    kinds.push(kind);
    pieces.push(marker);
    advance(marker, true, false);
    advance(core, false, true);
    ends.push(sLine, sCol, tLine, tCol);
  };
  const text = (data: string): boolean => {
    const lead = WHITESPACE_START.exec(data)![0];
    if (lead.length === data.length) {
      verbatim(data);
      return true;
    }
    const trail = WHITESPACE_END.exec(data)![0];
    const core = data.slice(lead.length, data.length - trail.length);
    if (core.includes('#}')) return false;
    verbatim(lead);
    mask(core, 'text');
    verbatim(trail);
    return true;
  };

  let i = 0;
  const n = source.length;
  while (i < n) {
    const start = nextTagStart(source, i);
    if (start > i && !text(source.slice(i, start))) return null;
    if (start >= n) break;
    const opener = source[start + 1];
    if (opener === '#') {
      const close = source.indexOf('#}', start + 2);
      if (close < 0) return null;
      const inside = source.slice(start + 2, close);
      if (inside.length > 2) {
        verbatim(`{#${inside[0]}`);
        mask(inside.slice(1, -1), 'comment');
        verbatim(`${inside[inside.length - 1]}#}`);
      } else verbatim(`{#${inside}#}`);
      i = close + 2;
      continue;
    }
    const end = tag(source, start, opener === '{' ? '}}' : '%}', verbatim, mask);
    if (end < 0) return null;
    i = end;
  }
  return { text: pieces.join(''), cores, kinds, ends: Int32Array.from(ends) };
}

/** Index of the next `{{`, `{%` or `{#` at or after i (the source length when none), as nunjucks' lexer finds tags. */
function nextTagStart(source: string, i: number): number {
  let at = source.indexOf('{', i);
  while (at >= 0 && at + 1 < source.length) {
    const c = source[at + 1];
    if (c === '{' || c === '%' || c === '#') return at;
    at = source.indexOf('{', at + 1);
  }
  return source.length;
}

/**
 * A tag from its opener to past its closer, its string literals masked;
 * -1 when unsure. Braces in code nest as the lexer counts them
 * (nested-braces.ts): while one is open, `}}` closes it, not the tag.
 */
function tag(source: string, start: number, closer: string, verbatim: (t: string) => void, mask: (core: string, kind: MarkKind) => void): number {
  let from = start;
  let depth = 0;
  let j = start + 2;
  const n = source.length;
  while (j < n) {
    const c = source[j]!;
    if (c === "'" || c === '"') {
      let k = j + 1;
      let backslash = false;
      while (k < n && source[k] !== c) {
        if (source[k] === '\\') {
          backslash = true;
          k += 1;
        }
        k += 1;
      }
      if (k >= n) return -1;
      // A dict's key or a method's target (`'a'.upper()`) is written into the code by value: it stays in the skeleton.
      const next = /\S/.exec(source.slice(k + 1, k + 40))?.[0];
      if (!backslash && k > j + 1 && next !== ':' && next !== '.') {
        verbatim(source.slice(from, j + 1));
        mask(source.slice(j + 1, k), 'string');
        from = k;
      }
      j = k + 1;
    } else if (c === 'r' && source[j + 1] === '/') {
      return -1; // a regex literal, whose body the scan does not read as the lexer does
    } else if (c === '{') {
      depth += 1;
      j += 1;
    } else if (c === '}' && depth > 0) {
      depth -= 1;
      j += 1;
    } else if (c === closer[0] && source[j + 1] === closer[1]) {
      verbatim(source.slice(from, j + 2));
      return j + 2;
    } else {
      j += 1;
    }
  }
  return -1;
}

/** A position (line, column) of the skeleton's tree as it is in the template. */
export function templatePosition(skeleton: Skeleton, line: number, col: number): [number, number] {
  const ends = skeleton.ends;
  // The last marker ending at or before the position (positions never fall inside one: tokens start outside them).
  let lo = 0;
  let hi = ends.length / 4;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const l = ends[mid * 4]!;
    if (l < line || (l === line && ends[mid * 4 + 1]! <= col)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return [line, col];
  const at = (lo - 1) * 4;
  const sLine = ends[at]!;
  const tLine = ends[at + 2]!;
  if (sLine === line) return [tLine, ends[at + 3]! + (col - ends[at + 1]!)];
  return [line + (tLine - sLine), col];
}

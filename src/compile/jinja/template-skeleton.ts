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
import { nextTagStart } from './next-tag-start.js';

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

const WHITESPACE = /\s/;

/** Whether the character at `i` is whitespace as a regex's `\s` reads it (ASCII answered without the regex). */
function isSpace(source: string, i: number): boolean {
  const c = source.charCodeAt(i);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return WHITESPACE.test(source[i]!);
}

/** Marker k, made once for every template. */
const MARKERS: string[] = [];
const markerOf = (k: number): string => (MARKERS[k] ??= `${MARK_START}${k}${MARK_END}`);

/**
 * The skeleton of a (preprocessed) template, or null when the scan cannot be sure of it.
 * The skeleton is the source with some ranges masked: what lies between them is
 * copied in one piece, and positions are counted over the source without copying it.
 */
export function skeletonOf(source: string): Skeleton | null {
  if (source.includes(MARK_START) || source.includes(MARK_END)) return null;
  const pieces: string[] = [];
  const cores: string[] = [];
  const kinds: MarkKind[] = [];
  const ends: number[] = [];
  // Lines and columns up to `done` in the source: in the skeleton (s) and in the template (t).
  let done = 0;
  let sLine = 0;
  let sCol = 0;
  let tLine = 0;
  let tCol = 0;
  /** Line breaks in source[from, to), and where the last one is (-1: none). */
  let breaks = 0;
  let lastBreak = -1;
  const countBreaks = (from: number, to: number): void => {
    breaks = 0;
    lastBreak = -1;
    for (let i = source.indexOf('\n', from); i >= 0 && i < to; i = source.indexOf('\n', i + 1)) {
      breaks += 1;
      lastBreak = i;
    }
  };
  /** source[from, to) becomes the next marker (what is before it since the last one is kept as it is). */
  const mask = (from: number, to: number, kind: MarkKind): void => {
    if (from > done) {
      pieces.push(source.slice(done, from));
      countBreaks(done, from);
      if (breaks > 0) {
        sLine += breaks;
        tLine += breaks;
        sCol = tCol = from - lastBreak - 1;
      } else {
        sCol += from - done;
        tCol += from - done;
      }
    }
    const marker = markerOf(cores.length);
    cores.push(source.slice(from, to));
    kinds.push(kind);
    pieces.push(marker);
    sCol += marker.length;
    countBreaks(from, to);
    if (breaks > 0) {
      tLine += breaks;
      tCol = to - lastBreak - 1;
    } else tCol += to - from;
    ends.push(sLine, sCol, tLine, tCol);
    done = to;
  };
  /** The text from `from` to `to`: its leading and trailing whitespace kept, its core masked. */
  const text = (from: number, to: number): boolean => {
    let lead = from;
    while (lead < to && isSpace(source, lead)) lead += 1;
    if (lead === to) return true;
    let trail = to;
    while (trail > lead && isSpace(source, trail - 1)) trail -= 1;
    const hash = source.indexOf('#}', lead);
    if (hash >= 0 && hash + 2 <= trail) return false;
    mask(lead, trail, 'text');
    return true;
  };

  let i = 0;
  const n = source.length;
  while (i < n) {
    const start = nextTagStart(source, i);
    if (start > i && !text(i, start)) return null;
    if (start >= n) break;
    const opener = source[start + 1];
    if (opener === '#') {
      const close = source.indexOf('#}', start + 2);
      if (close < 0) return null;
      // The inside's first and last characters stay (the parser reads the `-` of whitespace control there).
      if (close - (start + 2) > 2) mask(start + 3, close - 1, 'comment');
      i = close + 2;
      continue;
    }
    const end = tag(source, start, opener === '{' ? '}}' : '%}', mask);
    if (end < 0) return null;
    i = end;
  }
  if (done < n) pieces.push(source.slice(done));
  return { text: pieces.join(''), cores, kinds, ends: new Int32Array(ends) };
}

/**
 * A tag from its opener to past its closer, its string literals masked;
 * -1 when unsure. Braces in code nest as the lexer counts them
 * (nested-braces.ts): while one is open, `}}` closes it, not the tag.
 */
function tag(source: string, start: number, closer: string, mask: (from: number, to: number, kind: MarkKind) => void): number {
  const close0 = closer.charCodeAt(0);
  const close1 = closer.charCodeAt(1);
  let depth = 0;
  let j = start + 2;
  const n = source.length;
  while (j < n) {
    const c = source.charCodeAt(j);
    if (c === QUOTE || c === DOUBLE_QUOTE) {
      let k = j + 1;
      let backslash = false;
      while (k < n) {
        const d = source.charCodeAt(k);
        if (d === c) break;
        if (d === BACKSLASH) {
          backslash = true;
          k += 1;
        }
        k += 1;
      }
      if (k >= n) return -1;
      // A dict's key or a method's target (`'a'.upper()`) is written into the code by value: it stays in the skeleton.
      const next = nextNonSpace(source, k + 1, Math.min(n, k + 40));
      if (!backslash && k > j + 1 && next !== COLON && next !== DOT) mask(j + 1, k, 'string');
      j = k + 1;
    } else if (c === LOWER_R && source.charCodeAt(j + 1) === SLASH) {
      return -1; // a regex literal, whose body the scan does not read as the lexer does
    } else if (c === OPEN_BRACE) {
      depth += 1;
      j += 1;
    } else if (c === CLOSE_BRACE && depth > 0) {
      depth -= 1;
      j += 1;
    } else if (c === close0 && source.charCodeAt(j + 1) === close1) {
      return j + 2;
    } else {
      j += 1;
    }
  }
  return -1;
}

const QUOTE = 39;
const DOUBLE_QUOTE = 34;
const BACKSLASH = 92;
const LOWER_R = 114;
const SLASH = 47;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COLON = 58;
const DOT = 46;

/** The char code of the first non-whitespace character in [from, to), or -1. */
function nextNonSpace(source: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (!isSpace(source, i)) return source.charCodeAt(i);
  return -1;
}

/** A position (line, column) of the skeleton's tree as it is in the template, written into `out` at `at` (line) and `at + 1` (column). */
export function movePosition(skeleton: Skeleton, line: number, col: number, out: unknown[], at: number): void {
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
  if (lo === 0) {
    out[at] = line;
    out[at + 1] = col;
    return;
  }
  const e = (lo - 1) * 4;
  const sLine = ends[e]!;
  const tLine = ends[e + 2]!;
  if (sLine === line) {
    out[at] = tLine;
    out[at + 1] = ends[e + 3]! + (col - ends[e + 1]!);
  } else {
    out[at] = line + (tLine - sLine);
    out[at + 1] = col;
  }
}

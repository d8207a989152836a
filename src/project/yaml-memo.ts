/**
 * Parsed YAML by content: the value of a file and the line of every node its
 * readers asked about, keyed by a hash of its text. Parsing yml with
 * positions is the slowest part of loading a big project; the parse cache
 * (src/parse/parse-cache.ts) stores the entries a load used and primes
 * them into the next process. Content-addressed, so an entry can never
 * belong to another version of a file; a line nobody asked for before is
 * found by parsing the text after all.
 */
// One-shot hashing (Node 20.12+): no Hash object per call, which counts at 10,000 models.
import { hash as oneShotHash } from 'node:crypto';
import { isPlainJson } from './is-plain-json.js';

export interface MemoizedYaml {
  /** JSON text of the file's value. */
  readonly json: string;
  /** lineOf() answers by path (JSON of the path array); null: no line. */
  readonly lines: Record<string, number | null>;
}

const memo = new Map<string, MemoizedYaml>();
let touched: Set<string> | undefined;

export function yamlKey(text: string): string {
  return oneShotHash('sha256', text, 'hex');
}

/** The memoized parse of this text, if any. */
export function recallYaml(key: string): MemoizedYaml | undefined {
  const entry = memo.get(key);
  if (entry) touched?.add(key);
  return entry;
}

/** Remember a parse (values that are not plain JSON are not remembered); returns the line record to fill, or undefined. */
export function rememberYaml(key: string, value: unknown): Record<string, number | null> | undefined {
  if (value === undefined || !isPlainJson(value)) return undefined;
  const entry: MemoizedYaml = { json: JSON.stringify(value), lines: {} };
  memo.set(key, entry);
  touched?.add(key);
  return entry.lines;
}

/** Add entries stored by an earlier process. */
export function primeYaml(entries: Readonly<Record<string, MemoizedYaml>>): void {
  for (const [key, entry] of Object.entries(entries)) if (!memo.has(key)) memo.set(key, entry);
}

/** Run `load`, and return with its result the memo entries it read or wrote. */
export function withYamlTracking<T>(load: () => T): { result: T; used: Record<string, MemoizedYaml> } {
  const previous = touched;
  const seen = new Set<string>();
  touched = seen;
  try {
    const result = load();
    return { result, used: Object.fromEntries([...seen].map((key) => [key, memo.get(key)!])) };
  } finally {
    touched = previous;
    for (const key of seen) previous?.add(key);
  }
}

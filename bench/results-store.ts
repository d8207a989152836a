/**
 * bench/results.json: the last measured value of every figure at every
 * scale, with the machine and the date, so a run of some figures (--only) or
 * of another scale updates its rows and keeps the others.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Figure } from './figure.js';
import type { Machine } from './machine.js';

export interface StoredFigure extends Figure {
  readonly scale: number;
  readonly measuredAt: string;
  readonly machine: Machine;
}

export interface StoredResults {
  readonly figures: StoredFigure[];
}

export function readResults(path: string): StoredResults {
  if (!existsSync(path)) return { figures: [] };
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as StoredResults;
  } catch {
    return { figures: [] };
  }
}

/** Replace the stored rows of these figures (same id and scale), keep the rest, in a stable order. */
export function mergeResults(stored: StoredResults, fresh: readonly StoredFigure[], order: readonly string[]): StoredResults {
  const key = (f: StoredFigure) => `${f.scale}:${f.id}`;
  const byKey = new Map(stored.figures.map((f) => [key(f), f]));
  for (const f of fresh) byKey.set(key(f), f);
  const rank = (f: StoredFigure) => {
    const i = order.findIndex((prefix) => f.id === prefix || f.id.startsWith(`${prefix}-`));
    return i === -1 ? order.length : i;
  };
  const figures = [...byKey.values()].sort((a, b) => a.scale - b.scale || rank(a) - rank(b) || (a.id < b.id ? -1 : 1));
  return { figures };
}

export function writeResults(path: string, results: StoredResults): void {
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}

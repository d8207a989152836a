/**
 * bench/results.json: the last measured value of every figure at every
 * scale, with the machine and the date, so a run of some figures (--only) or
 * of another scale replaces its rows and keeps the others.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Figure } from './figure.js';
import type { Machine } from './machine.js';

export interface StoredFigure extends Figure {
  /** The bench module that measured it (run-all's figure id): a run of it replaces all its rows. */
  readonly group: string;
  /** Its place among the figures of its group. */
  readonly rank: number;
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

/** Replace every stored row of the groups just run (at that scale), keep the rest, in run order. */
export function mergeResults(stored: StoredResults, fresh: readonly StoredFigure[], order: readonly string[]): StoredResults {
  const ran = new Set(fresh.map((f) => `${f.scale}:${f.group}`));
  const kept = stored.figures.filter((f) => f.group !== undefined && !ran.has(`${f.scale}:${f.group}`));
  const rank = (f: StoredFigure) => {
    const i = order.indexOf(f.group);
    return i === -1 ? order.length : i;
  };
  const figures = [...kept, ...fresh].sort((a, b) => a.scale - b.scale || rank(a) - rank(b) || a.rank - b.rank);
  return { figures };
}

export function writeResults(path: string, results: StoredResults): void {
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * One round of a cold compile figure: target/ removed (no parse or graph
 * cache), then compile-plan-child.js in a fresh process, which plans (or,
 * with `mode` 'compile', also writes target/compiled and target/run) and
 * reports its own timings: the compile call, its phases and its garbage
 * collection.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { formatMs } from './figure.js';
import { median } from './side-by-side.js';
import { spawnJson } from './spawn-node.js';

const CHILD = join(import.meta.dirname, 'compile-plan-child.js');

/** What the child reports (spawnJson adds the process's wall and CPU time). */
interface ChildReport {
  /** Milliseconds inside the compile call. */
  ms: number;
  models: number;
  /** Milliseconds in each phase of the call (load, capture, parse-cache, graph, render, plan). */
  phases?: Record<string, number>;
  /** The garbage collector's pauses inside the call: total milliseconds and count, and the scavenges' part. */
  gc?: { ms: number; count: number; scavengeMs: number; scavenges: number };
}

/** Where a figure keeps each round's time inside the compile call and the process's CPU time (and, when given, the phases). */
export interface RoundSamples {
  readonly inside: number[];
  readonly cpu: number[];
  /** Per phase (and 'gc', 'scavenges'), one number a round. */
  readonly phases?: Record<string, number[]>;
}

/** A round for sideBySide: its wall time, the other two kept in `samples`. */
export function coldCompileRound(dir: string, models: number, samples: RoundSamples, mode: 'plan' | 'compile' = 'plan'): () => Promise<number> {
  return async () => {
    rmSync(join(dir, 'target'), { recursive: true, force: true });
    const report = await spawnJson<ChildReport>([CHILD, mode, dir]);
    if (report.models !== models) throw new Error(`compile saw ${report.models} models, expected ${models}`);
    samples.inside.push(report.ms);
    samples.cpu.push(report.cpuMs);
    if (samples.phases) {
      const keep = (key: string, value: number | undefined) => {
        if (value !== undefined) (samples.phases![key] ??= []).push(value);
      };
      for (const [phase, ms] of Object.entries(report.phases ?? {})) keep(phase, ms);
      keep('gc', report.gc?.ms);
      keep('scavenges', report.gc?.scavenges);
    }
    return report.wallMs;
  };
}

/** The phases in the order a compile runs them, with the words the figures use. */
const PHASES: readonly (readonly [string, string])[] = [
  ['load', 'load (list, read, yml)'],
  ['capture', 'capture (pass 1)'],
  ['parse-cache', 'parse cache'],
  ['graph', 'graph'],
  ['render', 'render (pass 2)'],
  ['plan', 'plan'],
];

/** "load 120 ms, capture 250 ms, ...; GC pauses 180 ms (33 scavenges) inside them": the medians of the rounds' phases. */
export function phaseBreakdown(phases: Readonly<Record<string, readonly number[]>>): string {
  const parts = PHASES.filter(([key]) => (phases[key]?.length ?? 0) > 0).map(([key, words]) => `${words} ${formatMs(median(phases[key]!))}`);
  if (parts.length === 0) return '';
  const gc = phases.gc?.length ? `; garbage collection ${formatMs(median(phases.gc))} of it (${median(phases.scavenges ?? []).toFixed(0)} scavenges)` : '';
  return `where the call goes (medians): ${parts.join(', ')}${gc}`;
}

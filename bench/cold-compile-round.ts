/**
 * One round of a cold compile figure: target/ removed (no parse or graph
 * cache), then compile-plan-child.js in a fresh process, which plans (or,
 * with `mode` 'compile', also writes target/compiled and target/run) and
 * reports its own timings.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnJson } from './spawn-node.js';

const CHILD = join(import.meta.dirname, 'compile-plan-child.js');

/** What the child reports (spawnJson adds the process's wall and CPU time). */
interface ChildReport {
  /** Milliseconds inside the compile call. */
  ms: number;
  models: number;
}

/** Where a figure keeps each round's time inside the compile call and the process's CPU time. */
export interface RoundSamples {
  readonly inside: number[];
  readonly cpu: number[];
}

/** A round for sideBySide: its wall time, the other two kept in `samples`. */
export function coldCompileRound(dir: string, models: number, samples: RoundSamples, mode: 'plan' | 'compile' = 'plan'): () => Promise<number> {
  return async () => {
    rmSync(join(dir, 'target'), { recursive: true, force: true });
    const report = await spawnJson<ChildReport>([CHILD, mode, dir]);
    if (report.models !== models) throw new Error(`compile saw ${report.models} models, expected ${models}`);
    samples.inside.push(report.ms);
    samples.cpu.push(report.cpuMs);
    return report.wallMs;
  };
}

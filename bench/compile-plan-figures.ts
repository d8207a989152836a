/**
 * Compile + plan of generated 1,000- and 10,000-model projects, each in a
 * cold process with no parse cache, interleaved; then the parse of the
 * unchanged 10,000-model project in a cold process with the parse cache
 * against the same parse without it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseCachePath } from '../src/compile/parse-cache.js';
import { loadProject } from '../src/project/load-project.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { writeGeneratedProject } from './generated-project.js';
import { median, sideBySide } from './side-by-side.js';
import { spawnJson } from './spawn-node.js';

const CHILD = join(import.meta.dirname, 'compile-plan-child.js');

interface ChildReport {
  ms: number;
  sinceStartMs: number;
  models: number;
}

export async function compilePlanFigures(ctx: BenchContext): Promise<Figure[]> {
  const small = writeGeneratedProject(ctx.path('project-1k'), 1_000);
  const large = writeGeneratedProject(ctx.path('project-10k'), 10_000);
  const cachePath = (dir: string) => parseCachePath(loadProject(dir));
  const smallCache = cachePath(small.dir);
  const largeCache = cachePath(large.dir);
  const inside: Record<string, number[]> = { small: [], large: [], warm: [], cold: [] };
  const child = (key: string, mode: 'compile' | 'parse', dir: string, models: number, dropCache: string | null) => async () => {
    if (dropCache) rmSync(dropCache, { force: true });
    const report = await spawnJson<ChildReport>([CHILD, mode, dir]);
    if (report.models !== models) throw new Error(`${mode} saw ${report.models} models, expected ${models}`);
    inside[key]!.push(report.ms);
    return report.wallMs;
  };

  const repeats = Math.max(3, Math.min(ctx.repeats, 5));
  const compiled = await sideBySide(
    { small: child('small', 'compile', small.dir, small.models, smallCache), large: child('large', 'compile', large.dir, large.models, largeCache) },
    repeats,
  );
  // Leave a cache in place for the warm runs (the cold runs drop it first and write it again).
  await child('warm', 'parse', large.dir, large.models, null)();
  inside.warm = [];
  const parsed = await sideBySide(
    { warm: child('warm', 'parse', large.dir, large.models, null), cold: child('cold', 'parse', large.dir, large.models, largeCache) },
    repeats,
  );
  const m = compiled.medians;
  const p = parsed.medians;
  return [
    {
      id: 'compile-plan-1k',
      title: 'compile + plan of 1,000 models, cold process',
      ratioOf: '10,000 models / 1,000 models',
      ratio: m.large / m.small,
      measured: `${formatMs(m.small)} wall (${formatMs(median(inside.small!))} in the compile call)`,
      target: '< 0.5 s',
      meets: m.small < 500,
    },
    {
      id: 'compile-plan-10k',
      title: 'compile + plan of 10,000 models, cold process',
      ratioOf: '10,000 models / 1,000 models',
      ratio: m.large / m.small,
      measured: `${formatMs(m.large)} wall (${formatMs(median(inside.large!))} in the compile call)`,
      target: '< 3 s',
      meets: m.large < 3000,
    },
    {
      id: 'parse-cache-10k',
      title: 'parse of the unchanged 10,000-model project, second run (parse cache), cold process',
      ratioOf: 'with parse cache / without',
      ratio: p.warm / p.cold,
      measured: `${formatMs(p.warm)} wall (${formatMs(median(inside.warm!))} in loadSession); without the cache ${formatMs(p.cold)}`,
      target: '< 0.6 s',
      meets: p.warm < 600,
      note: `ratio ${formatRatio(p.warm / p.cold)}`,
    },
  ];
}

/**
 * Compile + plan of generated 1,000- and 10,000-model projects, each in a
 * cold process with no target/ at all (no parse cache), interleaved, and the
 * 1,000-model compile again writing its target/compiled and target/run
 * files (what `mini-dbt compile` adds: two new files a model); then
 * `mini-dbt ls` on the unchanged 10,000-model project in a cold process with
 * its caches (the graph cache: stat the files, read one file, print) against
 * the same without them (target/partial_parse.json and target/graph_cache.json
 * removed) and a bare `node -e 0`.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { graphCachePath } from '../src/parse/graph-cache.js';
import { parseCachePath } from '../src/parse/parse-cache.js';
import { loadProject } from '../src/project/load-project.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { writeGeneratedProject } from './generated-project.js';
import { REPO_ROOT } from './history-workspace.js';
import { median, sideBySide } from './side-by-side.js';
import { spawnNode } from './spawn-node.js';
import { coldCompileRound, phaseBreakdown } from './cold-compile-round.js';

const CLI = join(REPO_ROOT, 'dist', 'bundle', 'main.cjs');

export async function compilePlanFigures(ctx: BenchContext): Promise<Figure[]> {
  const small = writeGeneratedProject(ctx.path('project-1k'), 1_000);
  const large = writeGeneratedProject(ctx.path('project-10k'), 10_000);
  const inside: Record<'small' | 'large' | 'written', number[]> = { small: [], large: [], written: [] };
  const cpu: Record<string, number[]> = { small: [], large: [], written: [], warm: [], cold: [], node: [] };
  const phases: Record<'small' | 'large' | 'written', Record<string, number[]>> = { small: {}, large: {}, written: {} };
  const compileCold = (key: 'small' | 'large' | 'written', dir: string, models: number) =>
    coldCompileRound(dir, models, { inside: inside[key], cpu: cpu[key]!, phases: phases[key] }, key === 'written' ? 'compile' : 'plan');
  const repeats = Math.max(3, Math.min(ctx.repeats, 4));
  const compiled = await sideBySide(
    {
      small: compileCold('small', small.dir, small.models),
      large: compileCold('large', large.dir, large.models),
      written: compileCold('written', small.dir, small.models),
    },
    repeats,
  );

  const loaded = loadProject(large.dir);
  const cachePaths = [parseCachePath(loaded), graphCachePath(loaded)];
  const writtenAt = () => statSync(cachePaths[1]!, { throwIfNoEntry: false })?.mtimeMs;
  /** Measured runs with the caches that loaded the project instead (the graph cache was written again). */
  let missed = 0;
  let warmRuns = 0;
  let warmCalls = 0;
  const ls = (key: 'warm' | 'cold') => async () => {
    if (key === 'cold') for (const path of cachePaths) rmSync(path, { force: true });
    const before = writtenAt();
    const r = await spawnNode([CLI, 'ls', '--output', 'name'], { cwd: large.dir });
    if (r.code !== 0 || r.stdout.split('\n').length < large.models) throw new Error(`mini-dbt ls failed: ${r.stderr.slice(0, 500)}`);
    // The first run with the caches is the warm-up round's (not measured): it writes the graph cache.
    if (key === 'warm' && ++warmCalls === 1) return r.wallMs;
    if (key === 'warm') {
      warmRuns++;
      if (before === undefined || writtenAt() !== before) missed++;
    }
    cpu[key]!.push(r.cpuMs);
    return r.wallMs;
  };
  const bareNode = async () => {
    const r = await spawnNode(['-e', '0'], { cwd: large.dir });
    cpu.node!.push(r.cpuMs);
    return r.wallMs;
  };
  // The generated files are minutes old, so the first load with the caches keeps the graph (a file younger
  // than 2 s would not be trusted: input-stamps.ts); that load is in the warm-up round, not measured.
  const parsed = await sideBySide({ warm: ls('warm'), cold: ls('cold'), node: bareNode }, repeats);
  const m = compiled.medians;
  const p = parsed.medians;
  const cpuOf = (key: string) => (Number.isNaN(median(cpu[key]!)) ? '' : `, CPU ${formatMs(median(cpu[key]!))}`);
  return [
    {
      id: 'compile-plan-1k',
      title: 'compile + plan of 1,000 models, cold process, no target/ (no parse cache)',
      ratioOf: '10,000 models / 1,000 models',
      ratio: m.large / m.small,
      measured: `${formatMs(m.small)} wall${cpuOf('small')} (${formatMs(median(inside.small))} in the compile call); writing target/compiled and target/run too: ${formatMs(m.written)}`,
      target: '< 0.5 s',
      meets: m.small < 500,
    },
    {
      id: 'compile-plan-10k',
      title: 'compile + plan of 10,000 models, cold process, no target/ (no parse cache)',
      ratioOf: '10,000 models / 1,000 models',
      ratio: m.large / m.small,
      measured: `${formatMs(m.large)} wall${cpuOf('large')} (${formatMs(median(inside.large))} in the compile call; ${phaseBreakdown(phases.large)})`,
      target: '< 0.6 s (issue 18: dbt Fusion\'s published parse of 10,000 models)',
      meets: m.large < 600,
    },
    {
      id: 'parse-cache-10k',
      title: '`mini-dbt ls` on the unchanged 10,000-model project, second run (graph and parse caches), cold process',
      ratioOf: 'with the caches / bare `node -e 0`',
      ratio: p.warm / p.node,
      measured: `${formatMs(p.warm)} wall${cpuOf('warm')} (bare node ${formatMs(p.node)}${cpuOf('node')}); without the caches ${formatMs(p.cold)}${cpuOf('cold')}`,
      target: '< 0.3 s and <= 4x bare node (issue 18)',
      meets: p.warm < 300 && p.warm / p.node <= 4,
      note: `with the caches / without: ${formatRatio(p.warm / p.cold)}${missed > 0 ? `; ${missed} of ${warmRuns} runs with the caches loaded the project instead` : ''}`,
    },
  ];
}

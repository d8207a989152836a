/**
 * The compile figures again on a realistic project (bench/realistic-project.ts:
 * set, for loops, macros with keyword arguments, conditional config(), var()
 * defaults, tests in yml), next to the generated one the fast path was
 * shaped for (issue 18: "the cold and cached targets hold for such a
 * project"):
 *
 *  - `mini-dbt compile` of the 1,000-model realistic project must exit 0
 *    (checked once, not timed);
 *  - compile + plan of 1,000 and 10,000 realistic models in a cold process
 *    with no target/ (no parse cache), interleaved with the generated
 *    10,000-model project's;
 *  - `mini-dbt ls` on the unchanged 10,000-model realistic project with the
 *    parse cache, interleaved with the same without target/ (no cache at all)
 *    and with a bare `node -e 0`.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { writeGeneratedProject } from './generated-project.js';
import { REPO_ROOT } from './history-workspace.js';
import { writeRealisticProject } from './realistic-project.js';
import { median, sideBySide } from './side-by-side.js';
import { spawnNode } from './spawn-node.js';
import { coldCompileRound, phaseBreakdown } from './cold-compile-round.js';

const CLI = join(REPO_ROOT, 'dist', 'bundle', 'main.cjs');

export async function realisticProjectFigures(ctx: BenchContext): Promise<Figure[]> {
  const small = writeRealisticProject(ctx.path('realistic-1k'), 1_000);
  const large = writeRealisticProject(ctx.path('realistic-10k'), 10_000);
  const shaped = writeGeneratedProject(ctx.path('generated-10k'), 10_000);

  const check = await spawnNode([CLI, 'compile'], { cwd: small.dir });
  if (check.code !== 0) throw new Error(`mini-dbt compile of the 1,000-model realistic project exited ${check.code}: ${check.stderr.slice(0, 2000)}`);

  type Key = 'small' | 'large' | 'shaped' | 'warm' | 'cold' | 'bare';
  const inside: Record<Key, number[]> = { small: [], large: [], shaped: [], warm: [], cold: [], bare: [] };
  const cpu: Record<Key, number[]> = { small: [], large: [], shaped: [], warm: [], cold: [], bare: [] };
  const phases: Record<string, number[]> = {};
  const compileCold = (key: Key, dir: string, models: number) => coldCompileRound(dir, models, { inside: inside[key], cpu: cpu[key], ...(key === 'large' ? { phases } : {}) });
  const repeats = Math.max(3, Math.min(ctx.repeats, 4));
  const compiled = await sideBySide(
    {
      small: compileCold('small', small.dir, small.models),
      large: compileCold('large', large.dir, large.models),
      shaped: compileCold('shaped', shaped.dir, shaped.models),
    },
    repeats,
  );

  // Without the cache: no target/ at all (the parse cache and whatever else a load keeps there).
  const ls = (key: 'warm' | 'cold') => async () => {
    if (key === 'cold') rmSync(join(large.dir, 'target'), { recursive: true, force: true });
    const r = await spawnNode([CLI, 'ls', '--output', 'name'], { cwd: large.dir });
    if (r.code !== 0 || r.stdout.split('\n').length < large.models) throw new Error(`mini-dbt ls failed: ${r.stderr.slice(0, 500)}`);
    cpu[key].push(r.cpuMs);
    return r.wallMs;
  };
  const bare = async () => {
    const r = await spawnNode(['-e', '0']);
    cpu.bare.push(r.cpuMs);
    return r.wallMs;
  };
  const listed = await sideBySide({ warm: ls('warm'), cold: ls('cold'), bare }, repeats);
  const m = compiled.medians;
  const l = listed.medians;
  const cpuOf = (key: Key) => (Number.isNaN(median(cpu[key])) ? '' : `, CPU ${formatMs(median(cpu[key]))}`);
  return [
    {
      id: 'realistic-compile-plan-1k',
      title: 'compile + plan of 1,000 realistic models (set, for, macro keywords, conditional config, tests), cold process, no target/',
      ratioOf: 'realistic 10,000 / realistic 1,000',
      ratio: m.large / m.small,
      measured: `${formatMs(m.small)} wall${cpuOf('small')} (${formatMs(median(inside.small))} in the compile call); \`mini-dbt compile\` exits 0`,
      target: '< 0.5 s',
      meets: m.small < 500,
    },
    {
      id: 'realistic-compile-plan-10k',
      title: 'compile + plan of 10,000 realistic models, cold process, no target/ (no parse cache)',
      ratioOf: 'realistic / generated (fast-path) 10,000 models',
      ratio: m.large / m.shaped,
      measured: `${formatMs(m.large)} wall${cpuOf('large')} (${formatMs(median(inside.large))} in the compile call; ${phaseBreakdown(phases)}); the generated 10,000 side by side: ${formatMs(m.shaped)}${cpuOf('shaped')}`,
      target: "< 0.6 s (issue 18: dbt Fusion's published parse of 10,000 models)",
      meets: m.large < 600,
    },
    {
      id: 'realistic-parse-cache-10k',
      title: '`mini-dbt ls` on the unchanged 10,000-model realistic project, second run (parse cache), cold process',
      ratioOf: 'with the parse cache / bare node -e 0',
      ratio: l.warm / l.bare,
      measured: `${formatMs(l.warm)} wall${cpuOf('warm')}; without the cache ${formatMs(l.cold)}${cpuOf('cold')}; bare node ${formatMs(l.bare)}${cpuOf('bare')}`,
      target: '< 0.3 s and <= 4x bare node',
      meets: l.warm < 300 && l.warm / l.bare <= 4,
      note: `with the cache / without: ${formatRatio(l.warm / l.cold)}`,
    },
  ];
}

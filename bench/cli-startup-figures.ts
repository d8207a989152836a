/**
 * `mini-dbt --version` and `mini-dbt ls` on the example, each a cold process
 * spawned from here, interleaved with a bare `node -e 0`: the floor any
 * Node.js CLI pays to start. The bin is dist/bundle/main.cjs, a CommonJS
 * file (Node starts no ES module loader for it).
 */
import { join } from 'node:path';
import type { BenchContext } from './bench-context.js';
import { formatMs, type Figure } from './figure.js';
import { REPO_ROOT, copyExample } from './history-workspace.js';
import { median, sideBySide } from './side-by-side.js';
import { spawnNode } from './spawn-node.js';
import { symlinkSync } from 'node:fs';

const CLI = join(REPO_ROOT, 'dist', 'bundle', 'main.cjs');

export async function cliStartupFigures(ctx: BenchContext): Promise<Figure[]> {
  const dir = ctx.path('cli-example');
  copyExample(dir);
  symlinkSync(join(REPO_ROOT, 'seeds', 'raw_orders.csv'), join(dir, 'seeds', 'raw_orders.csv'));
  const cpu: Record<string, number[]> = { version: [], ls: [], node: [] };
  const spawnTimed = (key: string, args: string[]) => async () => {
    const r = await spawnNode(args, { cwd: dir });
    if (r.code !== 0) throw new Error(`node ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    cpu[key]!.push(r.cpuMs);
    return r.wallMs;
  };
  const repeats = Math.max(10, ctx.repeats * 3);
  // ls keeps the project's graph (target/graph_cache.json) only once its files are 2 s old (parse/input-stamps.ts):
  // then the warm-up round's ls writes it, and the measured ones read it, as a user's second ls does.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const { medians } = await sideBySide(
    {
      version: spawnTimed('version', [CLI, '--version']),
      ls: spawnTimed('ls', [CLI, 'ls']),
      node: spawnTimed('node', ['-e', '0']),
    },
    repeats,
  );
  const cpuOf = (key: string) => (Number.isNaN(median(cpu[key]!)) ? '' : `, CPU ${formatMs(median(cpu[key]!))}`);
  return [
    {
      id: 'cli-version',
      title: '`mini-dbt --version`, cold process',
      ratioOf: '--version / bare `node -e 0`',
      ratio: medians.version / medians.node,
      measured: `${formatMs(medians.version)} wall${cpuOf('version')} (bare node ${formatMs(medians.node)}${cpuOf('node')})`,
      target: '<= 1.3x bare node (issue 18)',
      meets: medians.version / medians.node <= 1.3,
    },
    {
      id: 'cli-ls',
      title: '`mini-dbt ls` on the example, cold process',
      ratioOf: 'ls / bare `node -e 0`',
      ratio: medians.ls / medians.node,
      measured: `${formatMs(medians.ls)} wall${cpuOf('ls')} (bare node ${formatMs(medians.node)})`,
      target: '< 300 ms',
      meets: medians.ls < 300,
    },
  ];
}

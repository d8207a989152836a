import { spawnSync } from 'node:child_process';
import { colors } from './terminal.js';
import { out } from './lesson-text.js';

/**
 * Runs a real mini-dbt command in the lesson's scratch project (the same
 * CLI, as a child process) and prints it as a learner would type it, then
 * its output, cut to `maxLines` (the rest counted). Returns the exit code.
 */
export function runShown(args: readonly string[], dir: string, options: { readonly maxLines?: number; readonly tail?: boolean } = {}): number {
  out(colors.cyan(`$ mini-dbt ${args.map((a) => (/[\s'{}]/.test(a) ? `'${a.replace(/'/g, "'\\''")}'` : a)).join(' ')}`));
  const child = spawnSync(process.execPath, [process.argv[1]!, ...args, '--project-dir', dir], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  // The timestamps dbt prints help a log, not a lesson.
  const lines = `${child.stdout ?? ''}${child.stderr ?? ''}`.split('\n').map((l) => l.replace(/^\d\d:\d\d:\d\d {2}/, '')).filter((l, i, all) => l.trim() !== '' || (i > 0 && all[i - 1]!.trim() !== ''));
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const max = options.maxLines ?? lines.length;
  const shown = options.tail ? lines.slice(Math.max(0, lines.length - max)) : lines.slice(0, max);
  if (options.tail && lines.length > max) out(colors.dim(`  ... (${lines.length - max} lines before)`));
  for (const l of shown) out(`  ${l}`);
  if (!options.tail && lines.length > max) out(colors.dim(`  ... (${lines.length - max} more lines)`));
  return child.status ?? 1;
}

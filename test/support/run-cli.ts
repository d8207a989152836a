import { spawnSync } from 'node:child_process';
import { CLI } from './example-project.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the built CLI (dist/) as a user would, with no TTY. */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const out = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

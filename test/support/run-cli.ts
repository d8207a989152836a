import { spawn, spawnSync } from 'node:child_process';
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

/** The same, without blocking: for tests that run several CLIs at once. */
export function runCliAsync(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

import { spawn, spawnSync } from 'node:child_process';
import { CLI } from './example-project.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment a CLI under test gets: the test process's, no colour, plus
 * `extra`. NODE_EXTRA_CA_CERTS is left out: Node 20 reads and parses that
 * certificate file when every process starts (some 50 ms of CPU on the
 * machines that set it, a sixth of a short CLI run), and mini-dbt makes no
 * TLS connection, so nothing a test checks depends on it.
 */
export function cliEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Run the built CLI (dist/) as a user would, with no TTY. */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const out = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: cliEnv(options.env),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: out.status ?? -1, stdout: out.stdout, stderr: out.stderr };
}

/** The same, without blocking: for tests that run several CLIs at once. */
export function runCliAsync(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: cliEnv(options.env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

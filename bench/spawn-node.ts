import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Spawned {
  /** Wall time from spawn to exit, milliseconds. */
  readonly wallMs: number;
  /** User + system CPU time of the child, milliseconds (NaN without /usr/bin/time). */
  readonly cpuMs: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

const TIME = '/usr/bin/time';
const CPU_MARK = '@@cpu';

/**
 * Run `node <args>` in a fresh process and time it from the parent, spawn to
 * exit. Where GNU time exists the child runs under it, to also report its CPU
 * time (less sensitive than wall time to other processes on a busy machine;
 * time itself adds about a millisecond).
 */
export function spawnNode(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Spawned> {
  const timed = existsSync(TIME);
  const command = timed ? TIME : process.execPath;
  const argv = timed ? ['-f', `${CPU_MARK} %U %S`, process.execPath, ...args] : [...args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, argv, { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      let stderr = Buffer.concat(err).toString('utf8');
      let cpuMs = Number.NaN;
      const mark = stderr.lastIndexOf(CPU_MARK);
      if (mark !== -1) {
        const [user, system] = stderr.slice(mark + CPU_MARK.length).trim().split(/\s+/).map(Number);
        cpuMs = ((user ?? 0) + (system ?? 0)) * 1000;
        stderr = stderr.slice(0, mark);
      }
      resolve({ wallMs, cpuMs, stdout: Buffer.concat(out).toString('utf8'), stderr, code });
    });
  });
}

/** Spawn, require exit code 0, and parse the last stdout line as JSON. */
export async function spawnJson<T>(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<T & { wallMs: number; cpuMs: number }> {
  const result = await spawnNode(args, options);
  if (result.code !== 0) throw new Error(`node ${args.join(' ')} exited ${result.code}: ${result.stderr.slice(0, 2000)}`);
  const last = result.stdout.trim().split('\n').pop() ?? '';
  return { ...(JSON.parse(last) as T), wallMs: result.wallMs, cpuMs: result.cpuMs };
}

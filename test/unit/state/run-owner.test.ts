import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { currentRunOwner, isRunOwnerAlive } from '../../../src/state/run-owner.js';
import { REPO_ROOT } from '../../support/example-project.js';

/** A real second process: its owner record, read the way mini-dbt reads its own. */
async function otherProcess(): Promise<{ owner: ReturnType<typeof currentRunOwner>; kill: () => Promise<void> }> {
  // The built module (npm run build), as the CLI runs it.
  const script = `const { currentRunOwner } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/src/state/run-owner.js')).href)}); console.log(JSON.stringify(currentRunOwner())); setTimeout(() => {}, 30000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d))));
  return {
    owner: JSON.parse(line),
    kill: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }),
  };
}

describe('a run row names its process only while that process is alive', () => {
  it('records this process: pid, host and (on Linux) its start', () => {
    const me = currentRunOwner();
    expect(me.pid).toBe(process.pid);
    expect(me.host).toBe(hostname());
    if (process.platform === 'linux') expect(me.process_start).toMatch(/^[\w-]+:\d+$/);
  });

  it('another live process is alive; once killed it is not; a later process under its pid (another start) is not it', async () => {
    const other = await otherProcess();
    expect(other.owner.pid).not.toBe(process.pid);
    expect(isRunOwnerAlive(other.owner)).toBe(true);
    if (process.platform === 'linux') expect(isRunOwnerAlive({ ...other.owner, process_start: `${other.owner.process_start}0` })).toBe(false);
    await other.kill();
    expect(isRunOwnerAlive(other.owner)).toBe(false);
  });

  it('no pid, another host, or this very process: never named', () => {
    const me = currentRunOwner();
    expect(isRunOwnerAlive({ pid: null, host: hostname(), process_start: null })).toBe(false);
    expect(isRunOwnerAlive({ ...me, pid: process.ppid, host: `not-${hostname()}` })).toBe(false);
    expect(isRunOwnerAlive(me)).toBe(false);
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inert, testHooks } from '../../src/test-hooks.js';

describe('test-only hooks (src/test-hooks.ts)', () => {
  it('are the one empty function when the environment asks for nothing', () => {
    const hooks = testHooks({}, false);
    expect(hooks.crashPoint).toBe(inert);
    expect(hooks.injectedFailure).toBe(inert);
    expect(testHooks({ MINI_DBT_CRASH_AT: '0', PATH: '/bin' }, false).crashPoint).toBe(inert);
  });

  it('arm only what a variable asks for', () => {
    expect(testHooks({ MINI_DBT_CRASH_AT: '3' }, false).crashPoint).not.toBe(inert);
    expect(testHooks({ MINI_DBT_CRASH_AT: '3' }, false).injectedFailure).toBe(inert);
    expect(testHooks({ MINI_DBT_INJECT_FAILURE: 'm:insert' }, false).crashPoint).toBe(inert);
    expect(testHooks({ MINI_DBT_PAUSE: 'm:stage:1' }, false).injectedFailure).not.toBe(inert);
  });

  it('fail exactly the model and role named, each of a comma-separated list', () => {
    const { injectedFailure } = testHooks({ MINI_DBT_INJECT_FAILURE: 'a:insert,b:swap' }, false);
    expect(() => injectedFailure('a', 'insert')).toThrow('injected failure after the insert step of a (MINI_DBT_INJECT_FAILURE)');
    expect(() => injectedFailure('b', 'swap')).toThrow('after the swap step of b');
    expect(() => injectedFailure('a', 'swap')).not.toThrow();
    expect(() => injectedFailure('c', 'insert')).not.toThrow();
  });

  it('read the environment once, unless live (vitest, where tests set process.env around one run)', () => {
    const env: Record<string, string | undefined> = {};
    const once = testHooks(env, false);
    const live = testHooks(env, true);
    env.MINI_DBT_INJECT_FAILURE = 'm:post-hook';
    expect(() => once.injectedFailure('m', 'post-hook')).not.toThrow();
    expect(() => live.injectedFailure('m', 'post-hook')).toThrow('post-hook step of m');
    delete env.MINI_DBT_INJECT_FAILURE;
    expect(() => live.injectedFailure('m', 'post-hook')).not.toThrow();
    expect(testHooks({ VITEST: 'true' }).injectedFailure).not.toBe(inert);
  });

  it('pause the named step for the milliseconds given', () => {
    // Margins wide enough for a loaded CI machine: an unpaused step returns at once, a paused one waits 400 ms.
    const { injectedFailure } = testHooks({ MINI_DBT_PAUSE: 'm:stage:400' }, false);
    let started = performance.now();
    injectedFailure('m', 'insert');
    expect(performance.now() - started).toBeLessThan(200);
    started = performance.now();
    injectedFailure('m', 'stage');
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('with MINI_DBT_PAUSE_UNTIL, pause only until that file exists, at most the milliseconds given', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pause-')), 'go');
    const { injectedFailure } = testHooks({ MINI_DBT_PAUSE: 'm:stage:300', MINI_DBT_PAUSE_UNTIL: file }, false);
    let started = performance.now();
    injectedFailure('m', 'stage');
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    writeFileSync(file, '');
    started = performance.now();
    injectedFailure('m', 'stage');
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('are not part of the package API', async () => {
    const exported = Object.keys(await import('../../src/index.js'));
    for (const name of ['crashPoint', 'injectedFailure', 'testHooks', 'inert']) expect(exported).not.toContain(name);
    const index = readFileSync(fileURLToPath(new URL('../../src/index.ts', import.meta.url)), 'utf8');
    expect(index).not.toMatch(/test-hooks/);
  });
});

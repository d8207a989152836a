/**
 * How a pool thread starts the bundled thread script (node-pool-worker.cjs)
 * through V8's code cache, as the bin starts cli.cjs (src/cli/cli-loader.ts):
 * `<script>.v8cache` next to it, written once, atomically, by a thread as
 * it closes when there was none (or V8 rejected it: another Node, another
 * build); a folder that cannot be written just goes without.
 *
 * Sent to the thread as source text (`eval`): it must not refer to
 * anything outside itself.
 */
export function nodePoolLauncher(): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { readFileSync, renameSync, writeFileSync } = require('node:fs') as typeof import('node:fs');
  const { createRequire } = require('node:module') as typeof import('node:module');
  const { dirname } = require('node:path') as typeof import('node:path');
  const { Script } = require('node:vm') as typeof import('node:vm');
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const file = (workerData as { script: string }).script;
  const cachePath = `${file}.v8cache`;
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cachePath);
  } catch {
    cached = undefined;
  }
  const source = readFileSync(file, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData: cached });
  if (cached === undefined || script.cachedDataRejected) {
    // On close, so the cache holds what loading the session and running nodes compiled.
    parentPort!.on('message', (message: { type?: string }) => {
      if (message.type !== 'close') return;
      try {
        const temp = `${cachePath}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cachePath);
      } catch {
        // a read-only install: the next thread compiles again
      }
    });
  }
  const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const mod = { exports: {} };
  run(mod.exports, createRequire(file), mod, file, dirname(file));
}

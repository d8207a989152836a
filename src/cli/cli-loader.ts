/**
 * The `mini-dbt` bin: runs the CLI bundled as one CommonJS file (cli.cjs)
 * through V8's code cache, so a start does not parse and compile the
 * bundle again. Each command keeps its own cache next to the bundle
 * (`cli.cjs.<command>.v8cache`, the functions that command compiled),
 * written once, atomically, by the first run that has none (or whose cache
 * V8 rejects: another Node or another build); a folder that cannot be
 * written just runs without one. `--version` answers at once, and so does
 * an `ls` that the unchanged project answered before (the same command
 * line, the same inputs: parse/ls-answer-cache.ts), without loading the CLI.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { MINI_DBT_VERSION } from '../invocation/tool-version.js';
import { keptLsAnswer } from '../parse/ls-answer-cache.js';

const args = process.argv.slice(2);
// The first bare word is the command (`run`, `docs`...): the code a run compiles depends on it.
const command = args.find((a) => /^[a-z][a-z-]{0,30}$/.test(a)) ?? 'none';
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${MINI_DBT_VERSION}\n`);
} else if (!((command === 'ls' || command === 'list') && answerLs())) {
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(here, 'cli.cjs');
  const cachePath = join(here, `cli.cjs.${command}.v8cache`);
  let cached: Buffer | undefined;
  try {
    cached = readFileSync(cachePath);
  } catch {
    cached = undefined;
  }
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData: cached });
  if (cached === undefined || script.cachedDataRejected) {
    // After the command, so the cache holds every function it compiled.
    process.once('beforeExit', () => {
      try {
        const temp = `${cachePath}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cachePath);
      } catch {
        // a read-only install: no cache, the next start compiles again
      }
    });
  }
  const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const mod = { exports: {} };
  run(mod.exports, createRequire(file), mod, file, here);
}

/** Print the kept answer of this `ls`, if every input is as it was (parse/ls-answer-cache.ts); false: load the CLI. */
function answerLs(): boolean {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return false; // no working directory: the CLI says so
  }
  let answer: Buffer | undefined;
  try {
    answer = keptLsAnswer(args, { fromInside: true, quick: true });
  } catch (err) {
    answer = undefined; // anything unexpected: the CLI answers, from the same working directory
    if (!isStill(cwd)) {
      process.stderr.write(`Error: the working directory ${cwd} could not be entered again (${err instanceof Error ? err.message : String(err)})\n`);
      process.exitCode = 2;
      return true;
    }
  }
  if (answer === undefined) return false;
  // `mini-dbt ls | head`: a reader gone early is no error (as in main.ts).
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(answer);
  return true;
}

/** Whether the working directory is still `dir`. */
function isStill(dir: string): boolean {
  try {
    return process.cwd() === dir;
  } catch {
    return false;
  }
}

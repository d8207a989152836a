/**
 * The ls answer cache: the exact output of the last `ls` whose graph the
 * graph cache served or kept (graph-cache.ts), so the same `ls` again on an
 * unchanged project is answered by the bin (cli-loader.ts) before the rest
 * of the CLI is loaded: one small file read, the inputs stamped, the output
 * written. No graph is read, selected or ordered.
 *
 * target/ls_answer.txt, next to the graph cache: one line of JSON (the
 * header), the stamp of the inputs as it was taken (its text, then its
 * numbers' bytes: compared as they are, so the bin loads no node:crypto),
 * then the output as it was written. It is served only when
 *
 * - the command line is the same, word for word, and so are the current
 *   directory, the tool's build (tool-fingerprint.ts), HOME, every DBT_ and
 *   MINI_DBT_ variable and the variables the templates read (the key): the
 *   selection, the output format, --vars, the profile flags and
 *   --project-dir all come from these;
 * - the input files stamp as they did for the graph the answer was made
 *   from (the graph cache's stamp, input-stamps.ts: every file and folder
 *   of the project's paths, the project, package and profiles files; every
 *   one of them was older than the trust margin when it was taken);
 * - the graph cache it was made from is still the one in target/ (same
 *   size, modification time and inode): removing graph_cache.json, or a
 *   load writing it again, retires the answer with it.
 *
 * It is kept (ls-command.ts) only by an `ls` that printed nothing but its
 * listing (no warning, nothing on stderr) and exited 0, from a graph the
 * graph cache vouched for; anything else leaves the file as it was, and a
 * mismatch of any kind is a miss: the CLI then loads as before.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { envValues, toolEnv } from './env-read.js';
import { rawStamp, type RawStamp } from './input-stamps.js';
import { keyHash } from './key-hash.js';
import { publicStat, quickStat } from './stat-numbers.js';
import { toolInputs } from './tool-fingerprint.js';
import { writeCacheFile } from './write-cache-file.js';

const FORMAT = 1;
export const LS_ANSWER_FILE = 'ls_answer.txt';
const GRAPH_CACHE_FILE = 'graph_cache.json';

/** What the graph cache vouched for when it served or kept a graph: the inputs it stamped, their stamp, and where it is. */
export interface VouchedInputs {
  /** The folders and files stamped (absolute). */
  readonly dirs: readonly string[];
  readonly files: readonly string[];
  /** Their stamp, equal to the graph cache's (input-stamps.ts). */
  readonly stamp: RawStamp;
  /** The environment variables the templates read ('*': all). */
  readonly envNames: readonly string[] | '*';
  /** target/graph_cache.json (the answer is kept next to it). */
  readonly graphCachePath: string;
}

interface AnswerHeader {
  readonly format: number;
  readonly key: string;
  readonly envNames: readonly string[] | '*';
  readonly dirs: readonly string[];
  readonly files: readonly string[];
  /** The graph cache file's size, modification time and inode when the answer was kept. */
  readonly graphCache: readonly [number, number, number];
  /** The byte lengths of the stamp's text and of its numbers, which follow the header. */
  readonly stampText: number;
  readonly stampNumbers: number;
}

/** Keep `output`, what `ls` with the command line `args` printed from the graph `vouched` describes. Best effort. */
export function keepLsAnswer(vouched: VouchedInputs, args: readonly string[], output: string): void {
  let graphCache;
  try {
    graphCache = statSync(vouched.graphCachePath, { throwIfNoEntry: false });
  } catch {
    return; // target/ unreadable: nothing kept, as when it cannot be written
  }
  if (graphCache === undefined) return;
  const text = Buffer.from(vouched.stamp.text, 'utf8');
  const numbers = Buffer.from(vouched.stamp.numbers.buffer, vouched.stamp.numbers.byteOffset, vouched.stamp.numbers.byteLength);
  const header: AnswerHeader = {
    format: FORMAT,
    key: answerKey(args, vouched.envNames),
    envNames: vouched.envNames,
    dirs: vouched.dirs,
    files: vouched.files,
    graphCache: [graphCache.size, graphCache.mtimeMs, graphCache.ino],
    stampText: text.length,
    stampNumbers: numbers.length,
  };
  writeCacheFile(join(dirname(vouched.graphCachePath), LS_ANSWER_FILE), Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), text, numbers, Buffer.from(output, 'utf8')]));
}

/**
 * The kept output of `ls` with the command line `args` (the words after the
 * bin), when every input is as it was; else undefined. The bin's ways,
 * for a process that runs nothing else meanwhile: `fromInside`, stamp from
 * inside each folder (input-stamps.ts); `quick`, read the stats through
 * Node's fs binding (stat-numbers.ts: the stamp kept was taken through
 * fs.statSync, so a reading that differs is a miss).
 */
export function keptLsAnswer(args: readonly string[], { fromInside = false, quick = false } = {}): Buffer | undefined {
  const target = join(projectDirOf(args), 'target');
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(target, LS_ANSWER_FILE));
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(10);
  if (end < 0) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, end));
  } catch {
    return undefined;
  }
  if (!isHeader(header)) return undefined;
  const textEnd = end + 1 + header.stampText;
  const numbersEnd = textEnd + header.stampNumbers;
  if (numbersEnd > bytes.length) return undefined;
  const graphCache = statSync(join(target, GRAPH_CACHE_FILE), { throwIfNoEntry: false });
  if (graphCache === undefined || graphCache.size !== header.graphCache[0] || graphCache.mtimeMs !== header.graphCache[1] || graphCache.ino !== header.graphCache[2]) return undefined;
  if (header.key !== answerKey(args, header.envNames)) return undefined;
  const stamp = rawStamp(header.dirs, header.files, undefined, { fromInside, stat: quick ? quickStat(target) : publicStat });
  const numbers = Buffer.from(stamp.numbers.buffer, stamp.numbers.byteOffset, stamp.numbers.byteLength);
  if (!numbers.equals(bytes.subarray(textEnd, numbersEnd)) || stamp.text !== bytes.toString('utf8', end + 1, textEnd)) return undefined;
  return bytes.subarray(numbersEnd);
}

/**
 * Where to look for the answer: --project-dir's folder (its last one, as
 * commander takes it), else the current one. Only a guess: an answer found
 * there is served only if its key, which holds the whole command line and
 * the current directory, is this command's.
 */
function projectDirOf(args: readonly string[]): string {
  let dir = '.';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === '--project-dir' && i + 1 < args.length) dir = args[++i]!;
    else if (arg.startsWith('--project-dir=')) dir = arg.slice('--project-dir='.length);
  }
  return resolve(dir);
}

/** Every input of the answer but the files. */
function answerKey(args: readonly string[], envNames: readonly string[] | '*'): string {
  return keyHash(JSON.stringify({ format: FORMAT, tool: toolInputs(), cwd: process.cwd(), args, env: withFlagEnv(toolEnv(), args), read: envValues(envNames) }));
}

/**
 * The environment as the CLI runs the command: --version-check / --no-version-check set DBT_VERSION_CHECK
 * for the process (cli/global-flags.ts), so the CLI, keeping an answer, sees it set; the bin, looking one
 * up before any flag is read, sets it the same way (else such an ls would never find its own answer).
 */
function withFlagEnv(env: Record<string, string | undefined>, args: readonly string[]): Record<string, string | undefined> {
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  const last = [...flags].reverse().find((a) => a === '--version-check' || a === '--no-version-check');
  if (last === undefined) return env;
  const withFlag = { ...env, DBT_VERSION_CHECK: String(last === '--version-check') };
  return Object.fromEntries(Object.entries(withFlag).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function isHeader(value: unknown): value is AnswerHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  return h.format === FORMAT && typeof h.key === 'string' && isLength(h.stampText) && isLength(h.stampNumbers)
    && (h.envNames === '*' || isStringList(h.envNames)) && isStringList(h.dirs) && isStringList(h.files)
    && Array.isArray(h.graphCache) && h.graphCache.length === 3 && h.graphCache.every((n) => typeof n === 'number');
}

function isLength(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

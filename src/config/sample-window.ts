import { createRequire } from 'node:module';
import { ProjectError } from '../errors/project-error.js';
import { BATCH_SIZES, parseTime, type BatchSize } from './microbatch-time.js';

/** yaml is loaded only for a static --sample (`{start: ..., end: ...}`). */
const loadYaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml') as typeof import('yaml');

const HINT = "--sample takes a relative window, '<integer> <grain>' (grain: hour, day, month or year, or their plurals: '3 days'), or a static one, \"{'start': '2024-07-01', 'end': '2024-07-08 18:00:00'}\"";

/**
 * dbt 1.10's --sample (dbt-core's SampleWindow): the window [start, end) that refs and sources with an
 * `event_time` are filtered to in run and build. Relative, `'<N> <grain>'`: it ends `now` and starts N
 * grains before, to the second (no truncation to the grain, as dbt's offset_timestamp; a month back
 * from the 31st is the last day of the shorter month, as relativedelta has it). Static, a mapping with
 * `start` and `end` (dates or times, UTC). `now` is the caller's: the `as_of` var when given, as for
 * microbatch models, else the command's start (dbt reads the clock).
 *
 * Errors, in dbt's words where dbt has them: not two words (E201), a count that is not an integer
 * (E202), an unknown grain (E203), a static window without a valid start and end, or ending before
 * it starts (E204).
 */
export function parseSampleWindow(spec: string, now: Date): { start: Date; end: Date } {
  const text = spec.trim();
  if (text.startsWith('{')) return staticWindow(text);
  const parts = text.split(' ');
  if (parts.length !== 2) {
    throw new ProjectError(`Cannot load SAMPLE_WINDOW from '${spec}'. Must be of form 'DAYS_INT GRAIN_SIZE'.`, { hint: HINT });
  }
  const [count, grainWord] = parts as [string, string];
  if (!/^[+-]?\d+$/.test(count)) throw new ProjectError(`Unable to convert '${count}' to an integer.`, { hint: HINT });
  const grain = grainWord.toLowerCase().replace(/s+$/, '');
  if (!(BATCH_SIZES as readonly string[]).includes(grain)) {
    const valid = [...BATCH_SIZES, ...BATCH_SIZES.map((g) => `${g}s`)];
    throw new ProjectError(`Invalid grain size '${grainWord}'. Must be one of [${valid.map((g) => `'${g}'`).join(', ')}].`, { hint: HINT });
  }
  return { start: offsetTime(now, grain as BatchSize, -Number(count)), end: now };
}

function staticWindow(text: string): { start: Date; end: Date } {
  let value: unknown;
  try {
    value = loadYaml().parse(text);
  } catch (err) {
    throw new ProjectError(`Cannot load SAMPLE_WINDOW from '${text}': ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, { hint: HINT });
  }
  const entry = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (!entry || entry.start === undefined || entry.end === undefined || Object.keys(entry).some((k) => k !== 'start' && k !== 'end')) {
    throw new ProjectError(`Cannot load SAMPLE_WINDOW from '${text}': a static window is a mapping with start and end, and nothing else`, { hint: HINT });
  }
  const start = parseTime(entry.start instanceof Date ? entry.start.toISOString().slice(0, 19) : entry.start, "--sample's start");
  const end = parseTime(entry.end instanceof Date ? entry.end.toISOString().slice(0, 19) : entry.end, "--sample's end");
  if (start.getTime() >= end.getTime()) {
    throw new ProjectError(`--sample's start (${String(entry.start)}) must be before its end (${String(entry.end)}); the end is exclusive`, { hint: HINT });
  }
  return { start, end };
}

/** `d` moved by `n` grains, to the second, in UTC; a month or year that lacks the day ends on its last day. */
function offsetTime(d: Date, grain: BatchSize, n: number): Date {
  if (grain === 'hour') return new Date(d.getTime() + n * 3_600_000);
  if (grain === 'day') return new Date(d.getTime() + n * 86_400_000);
  const months = grain === 'month' ? n : 12 * n;
  const target = new Date(d.getTime());
  const day = d.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target;
}

import { ProjectError } from '../errors/project-error.js';
import { addBatches, batchLabel, boundText, ceilTime, truncateTime, type BatchSize } from '../config/microbatch-time.js';

/** The most batches one microbatch run may plan: more is almost always a `begin` or `batch_size` typo. */
export const MAX_BATCHES = 100_000;

/** Why a batch is in a run. */
export type BatchReason = 'begin' | 'lookback' | 'gap' | 'flags' | 'retry';

/** One half-open window `[start, end)` of a microbatch run. */
export interface PlannedBatch {
  /** The batch as dbt's log lines name it (format_batch_start): 2024, 2024-09, 2024-09-17, 2024-09-17T13; the run ledger records it; `model.batch.id` is it without dashes (batchId). */
  readonly label: string;
  readonly start: Date;
  readonly end: Date;
  /** The bounds as SQL text (bare dates at midnight). */
  readonly startText: string;
  readonly endText: string;
  readonly reason: BatchReason;
}

export interface MicrobatchWindowInput {
  readonly batchSize: BatchSize;
  readonly begin: Date;
  /** Batches before the current one to rerun (dbt default 1). */
  readonly lookback: number;
  /** The run's "now" (the as_of night, else the invocation time). */
  readonly now: Date;
  /** --event-time-start/--event-time-end: exactly this range, no lookback, no gaps. */
  readonly eventTime?: { readonly start: Date; readonly end: Date };
  /** Whether the target exists as a table and no full refresh applies. */
  readonly incremental: boolean;
  /**
   * Batch labels the run ledger records as built (incremental runs): the
   * batches before the lookback it lacks are filled when `fillGaps`, else
   * only reported (`missed`).
   */
  readonly built?: ReadonlySet<string>;
  /** fill_gaps: true: rebuild the never-built batches before the lookback too (dbt does not). */
  readonly fillGaps?: boolean;
  /** The model's name, for the error when the run would plan too many batches. */
  readonly model?: string;
}

export interface MicrobatchWindows {
  readonly batches: readonly PlannedBatch[];
  /** The batches added because the ledger never recorded them as built (fill_gaps: true). */
  readonly gaps: readonly PlannedBatch[];
  /** Never-built batches before the lookback that this run leaves alone (fill_gaps off, as in dbt); absent when not asked. */
  readonly missed?: readonly PlannedBatch[];
  /** How the range was chosen, for the plan's reason. */
  readonly source: string;
}

export function plannedBatch(start: Date, size: BatchSize, reason: BatchReason): PlannedBatch {
  const end = addBatches(start, size, 1);
  return { label: batchLabel(start, size), start, end, startText: boundText(start), endText: boundText(end), reason };
}

const HOUR_MS = 3_600_000;

/** How many batches of `size` lie between two aligned bounds (an upper bound for months and years). */
function batchCount(start: Date, end: Date, size: BatchSize): number {
  const ms = end.getTime() - start.getTime();
  if (ms <= 0) return 0;
  if (size === 'hour') return Math.ceil(ms / HOUR_MS);
  if (size === 'day') return Math.ceil(ms / (24 * HOUR_MS));
  const months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + (end.getUTCMonth() - start.getUTCMonth()) + 1;
  return size === 'month' ? months : Math.ceil(months / 12);
}

/** Stop before planning a run of more than MAX_BATCHES batches, naming what sets their number. */
function checkBatchCount(input: MicrobatchWindowInput, start: Date, end: Date): void {
  const count = batchCount(start, end, input.batchSize);
  if (count <= MAX_BATCHES) return;
  const model = input.model ? `model '${input.model}'` : 'a microbatch model';
  throw new ProjectError(
    `${model} would run ${count} batches of one ${input.batchSize} (from ${boundText(start)} to ${boundText(end)}; begin ${boundText(input.begin)}, batch_size ${input.batchSize}); at most ${MAX_BATCHES} are planned in one run`,
    { hint: 'set a later begin or a larger batch_size, or run a range with --event-time-start/--event-time-end' },
  );
}

/** Consecutive batches from `start` (aligned) that begin before `end`; start == end gives none (no zero-width batch). */
function range(start: Date, end: Date, size: BatchSize, reason: BatchReason): PlannedBatch[] {
  const out: PlannedBatch[] = [];
  for (let s = start; s.getTime() < end.getTime(); s = addBatches(s, size, 1)) out.push(plannedBatch(s, size, reason));
  return out;
}

/**
 * The batches a microbatch run builds, in time order.
 *
 * - With --event-time-start/--event-time-end: truncate(start) up to
 *   ceil(end), end exclusive.
 * - Not incremental (no table yet, or a full refresh): every batch from
 *   truncate(begin) up to ceil(now).
 * - Incremental: the current batch plus `lookback` before it (dbt). With
 *   `fillGaps` (fill_gaps: true, mini-dbt's opt-in) also every earlier batch
 *   since `begin` that the run ledger never recorded as built, so missed runs
 *   leave no silent holes; without it those are only returned as `missed`.
 */
export function microbatchWindows(input: MicrobatchWindowInput): MicrobatchWindows {
  const { batchSize: size } = input;
  const begin = truncateTime(input.begin, size);
  if (input.eventTime) {
    const start = truncateTime(input.eventTime.start, size);
    const end = ceilTime(input.eventTime.end, size);
    checkBatchCount(input, start, end);
    return { batches: range(start, end, size, 'flags'), gaps: [], source: `--event-time-start/--event-time-end: ${boundText(start)} to ${boundText(end)} (end exclusive)` };
  }
  const end = ceilTime(input.now, size);
  checkBatchCount(input, begin, end);
  if (!input.incremental) {
    const batches = range(begin, end, size, 'begin');
    // dbt's build_batches always yields one: with begin after now, a batch from begin to now selects nothing,
    // and the table is created empty (a view on it can be queried).
    if (batches.length === 0) {
      const first = plannedBatch(begin, size, 'begin');
      return { batches: [{ ...first, end: input.now, endText: boundText(input.now) }], gaps: [], source: `begin (${boundText(begin)}) is after now (${boundText(input.now)}): one empty batch creates the table, as dbt's does` };
    }
    return { batches, gaps: [], source: `every ${size} from begin (${boundText(begin)}) to ${boundText(end)} (end exclusive)` };
  }
  const lookbackStart = addBatches(truncateTime(end, size), size, -(input.lookback + 1));
  const start = lookbackStart.getTime() < begin.getTime() ? begin : lookbackStart;
  const recent = range(start, end, size, 'lookback');
  const source = `the current ${size} and ${input.lookback} before it (lookback ${input.lookback})`;
  const built = input.built;
  if (built === undefined) return { batches: recent, gaps: [], source };
  const unbuilt = range(begin, start, size, 'gap').filter((b) => !built.has(b.label));
  if (input.fillGaps !== true) return { batches: recent, gaps: [], missed: unbuilt, source };
  return { batches: [...unbuilt, ...recent], gaps: unbuilt, source: unbuilt.length > 0 ? `${source}, plus ${unbuilt.length} never-built ${size}${unbuilt.length === 1 ? '' : 's'} since begin (fill_gaps: true)` : source };
}

/** Explicit windows (retry of failed batches), as planned batches. */
export function retryWindows(windows: readonly { readonly start: string; readonly end: string }[], size: BatchSize, parse: (text: string) => Date): PlannedBatch[] {
  return windows
    .map((w) => {
      const start = parse(w.start);
      const end = parse(w.end);
      return { label: batchLabel(start, size), start, end, startText: boundText(start), endText: boundText(end), reason: 'retry' as const };
    })
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

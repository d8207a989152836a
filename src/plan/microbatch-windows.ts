import { addBatches, batchLabel, boundText, ceilTime, truncateTime, type BatchSize } from './microbatch-time.js';

/** Why a batch is in a run. */
export type BatchReason = 'begin' | 'lookback' | 'gap' | 'flags' | 'retry';

/** One half-open window `[start, end)` of a microbatch run. */
export interface PlannedBatch {
  /** dbt's batch id: 2024, 2024-09, 2024-09-17, 2024-09-17T13. */
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
  /** Batch labels the run ledger records as built (for gap filling). */
  readonly built?: ReadonlySet<string>;
}

export interface MicrobatchWindows {
  readonly batches: readonly PlannedBatch[];
  /** The batches added because the ledger never recorded them as built. */
  readonly gaps: readonly PlannedBatch[];
  /** How the range was chosen, for the plan's reason. */
  readonly source: string;
}

export function plannedBatch(start: Date, size: BatchSize, reason: BatchReason): PlannedBatch {
  const end = addBatches(start, size, 1);
  return { label: batchLabel(start, size), start, end, startText: boundText(start), endText: boundText(end), reason };
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
 * - Incremental: the current batch plus `lookback` before it (dbt), and,
 *   unlike dbt, every earlier batch since `begin` that the run ledger has
 *   never recorded as built, so missed runs leave no silent holes.
 */
export function microbatchWindows(input: MicrobatchWindowInput): MicrobatchWindows {
  const { batchSize: size } = input;
  const begin = truncateTime(input.begin, size);
  if (input.eventTime) {
    const start = truncateTime(input.eventTime.start, size);
    const end = ceilTime(input.eventTime.end, size);
    return { batches: range(start, end, size, 'flags'), gaps: [], source: `--event-time-start/--event-time-end: ${boundText(start)} to ${boundText(end)} (end exclusive)` };
  }
  const end = ceilTime(input.now, size);
  if (!input.incremental) {
    return { batches: range(begin, end, size, 'begin'), gaps: [], source: `every ${size} from begin (${boundText(begin)}) to ${boundText(end)} (end exclusive)` };
  }
  const lookbackStart = addBatches(truncateTime(end, size), size, -(input.lookback + 1));
  const start = lookbackStart.getTime() < begin.getTime() ? begin : lookbackStart;
  const recent = range(start, end, size, 'lookback');
  const built = input.built ?? new Set<string>();
  const gaps = range(begin, start, size, 'gap').filter((b) => !built.has(b.label));
  const source = `the current ${size} and ${input.lookback} before it (lookback ${input.lookback})`;
  return { batches: [...gaps, ...recent], gaps, source: gaps.length > 0 ? `${source}, plus ${gaps.length} never-built ${size}${gaps.length === 1 ? '' : 's'} since begin` : source };
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

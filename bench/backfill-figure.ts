/**
 * Backfill of 54 days against a full rebuild of daily_revenue, interleaved
 * with 1-day backfills to separate the fixed overhead from the per-partition
 * cost; twice: through the engine (`run --vars '{start, end}'`, the publish
 * alone) and through the `backfill` command's API (the range and key checks
 * on the staged rows inside the publish, before/after totals, the raw-row
 * counts, the downstream check, the ledger reason).
 */
import { backfill, run } from '../src/index.js';
import { addDays } from '../src/feed/iso-date.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { HISTORY_DAYS, mustSucceed } from './history-workspace.js';
import { sideBySide, timed } from './side-by-side.js';

const DAYS = 54;

export async function backfillFigures(ctx: BenchContext): Promise<Figure[]> {
  const { session, history } = await ctx.history();
  const end = addDays(history.end, -6);
  const range = (days: number) => ({ start: addDays(end, -(days - 1)), end });
  const reason = 'bench: refunds landed after the lookback';
  const command = (days: number) => () =>
    timed(async () => {
      const result = await backfill({ session, model: 'daily_revenue', ...range(days), reason });
      if (result.exitCode !== 0) throw new Error(`backfill of ${days} days failed`);
    });
  const engine = (days: number) => () =>
    timed(async () => mustSucceed(await run({ session, command: 'backfill', select: ['daily_revenue'], vars: range(days), reason }), `engine backfill of ${days} days`));
  const { medians: m } = await sideBySide(
    {
      engine: engine(DAYS),
      engineDay: engine(1),
      command: command(DAYS),
      commandDay: command(1),
      full: () => timed(async () => mustSucceed(await run({ session, select: ['daily_revenue'], fullRefresh: true }), 'full rebuild')),
    },
    ctx.repeats,
  );
  const share = DAYS / HISTORY_DAYS;
  const figure = (id: string, title: string, range54: number, day: number): Figure => {
    const perDay = (range54 - day) / (DAYS - 1);
    const fixed = Math.max(0, day - perDay);
    const variable = (range54 - fixed) / m.full;
    return {
      id,
      title,
      ratioOf: 'backfill / full rebuild',
      ratio: range54 / m.full,
      measured: `${formatMs(range54)} (1 day: ${formatMs(day)}), full rebuild ${formatMs(m.full)}; fixed overhead ${formatMs(fixed)}, then ${formatMs(perDay)} a day`,
      target: `<= ${formatRatio(1.5 * share)} (1.5 x ${DAYS}/${HISTORY_DAYS}) + a fixed overhead`,
      meets: variable <= 1.5 * share,
      note: `without the fixed overhead: ${formatRatio(variable)}`,
    };
  };
  return [
    figure('backfill-engine', `backfill of ${DAYS} days / full rebuild of daily_revenue, engine (\`run --vars '{start, end}'\`)`, m.engine, m.engineDay),
    figure('backfill-command', `backfill of ${DAYS} days / full rebuild, \`mini-dbt backfill\` (checks, totals, publish, downstream check)`, m.command, m.commandDay),
  ];
}

/**
 * Issue 18's lateness floor: `lateness` of the raw history (its histogram,
 * percentiles and what the lookback misses) against a bare GROUP BY of the
 * lateness in days over the same rows, on one open connection, interleaved.
 * The issue's figure is on the x10 history (`npm run bench -- --scale 10`).
 */
import { lateness, openSessionWarehouse } from '../src/index.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, type Figure } from './figure.js';
import { sideBySide, timed } from './side-by-side.js';

export async function latenessFigure(ctx: BenchContext): Promise<Figure> {
  const { session, history } = await ctx.history();
  const db = openSessionWarehouse(session, {});
  try {
    const bare = 'select cast(julianday("load_date") - julianday("order_date") as integer) as days, count(*) as n from "raw_orders" group by 1 order by 1';
    const { medians: m } = await sideBySide(
      {
        lateness: () => timed(() => lateness({ session, name: 'raw_orders' })),
        bare: () => timed(() => db.prepare(bare).all()),
      },
      ctx.repeats,
    );
    const ratio = m.lateness / m.bare;
    return {
      id: 'floor-lateness',
      title: `\`lateness\` of raw_orders (${history.rows.toLocaleString('en-US')} rows) / a bare GROUP BY of the lateness over the same rows`,
      ratioOf: 'lateness / bare GROUP BY',
      ratio,
      measured: `lateness ${formatMs(m.lateness)}, bare ${formatMs(m.bare)}`,
      target: '<= 1.5x (issue 18, on the x10 history)',
      meets: ratio <= 1.5,
    };
  } finally {
    db.close();
  }
}

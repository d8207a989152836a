import { describe, expect, it } from 'vitest';
import { loadSession, replay, run } from '../../src/index.js';
import { renderReplay } from '../../src/cli/replay-command.js';
import { whyLine } from '../../src/cli/stale-why-lines.js';
import { addDays } from '../../src/feed/iso-date.js';
import { LATE_ORDER_ROWS, LOOKBACK, lateOrdersProject } from '../support/late-orders-project.js';

describe('replay says the night each day went stale, and why', () => {
  it('the day, the night, the orders and what changed, computed from the rows', async () => {
    const dir = lateOrdersProject();
    const session = loadSession({ projectDir: dir });
    expect((await run({ session, command: 'seed', writeArtifacts: false })).exitCode).toBe(0);
    const r = await replay({ session, model: 'daily_revenue', from: '2026-01-02', to: '2026-01-06', vars: {} });
    // Rows landing more than LOOKBACK days late are never applied: their day goes stale the night they land.
    const missed = LATE_ORDER_ROWS.filter((x) => x.load_date > addDays(x.order_date, LOOKBACK));
    const nights = [...new Set(missed.map((x) => `${x.order_date}@${x.load_date}`))];
    expect(r.went_stale.map((e) => `${e.partition}@${e.night}`)).toEqual(nights);
    const first = r.went_stale[0]!;
    expect(first).toMatchObject({ partition: '2026-01-01', night: '2026-01-05', window: ['2026-01-03', '2026-01-05'], rows: missed.length });
    expect(first.causes.map((c) => [c.id, c.days_late, c.changes])).toEqual(missed.map((x) => [x.order_id, 4, [{ column: 'status', from: 'delivered', to: 'refunded' }]]));
    expect(whyLine(first)).toBe('2026-01-01 went stale on 2026-01-05: order 1 (status delivered -> refunded) landed 4 days late (and 1 more row), window 2026-01-03..2026-01-05');
    // With the required lookback (the longest lateness, 4) nothing goes stale.
    expect(r.with_required_lookback?.went_stale).toEqual([]);
    const text = renderReplay(r).join('\n');
    expect(text).toContain('why: 1 time a day went stale, on the night a row for it landed outside the window (lookback 2, 4 days late)');
    expect(text).toContain(`  ${whyLine(first)}`);
  });
});

import { describe, expect, it } from 'vitest';
import { compile, run, type NodePlan } from '../../src/index.js';
import { exampleProject } from '../support/example-project.js';

/** What a plan does, without the SELECT's own text (identical by construction) or batches' wall-clock-free fields. */
const shape = (plan: NodePlan) => ({ mode: plan.mode, reason: plan.reason, strategy: plan.strategy, sql: plan.sql, statements: plan.statements });

/**
 * compile explains what run runs: both read one plan (planNode), so in the
 * same warehouse state compile's plan of a model is the plan run executes,
 * in every mode the build-mode decision can take.
 */
describe('compile and run read the same plan', () => {
  it('first build, nightly incremental, --full-refresh and a backfill through start/end vars', async () => {
    const dir = exampleProject();
    const must = async (o: Parameters<typeof run>[0]) => {
      const r = await run({ projectDir: dir, writeArtifacts: false, ...o });
      expect(r.results.filter((x) => x.status !== 'success' && x.status !== 'pass').map((x) => x.message)).toEqual([]);
      return r;
    };
    await must({ command: 'seed' });
    const check = async (options: { fullRefresh?: boolean; vars?: Record<string, unknown> }, mode: NodePlan['mode']) => {
      const [explained] = compile({ projectDir: dir, select: ['daily_revenue'], writeArtifacts: false, ...options });
      const ran = await must({ select: ['+daily_revenue'], ...options });
      const executed = ran.results.find((r) => r.name === 'daily_revenue')!.plan!;
      expect(executed.mode).toBe(mode);
      expect(shape(explained!.plan)).toEqual(shape(executed));
    };
    await check({}, 'full');
    await check({}, 'incremental');
    await check({ fullRefresh: true }, 'full');
    await check({ vars: { start: '2026-10-01', end: '2026-10-07' } }, 'backfill');
  });
});

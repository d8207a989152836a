import { describe, expect, it } from 'vitest';
import type { ModelNode } from '../../../src/compile/manifest.js';
import { parseModelSettings } from '../../../src/config/model-settings.js';
import { backfillOfVars, PARSE_CONTEXT, type RunContext } from '../../../src/invocation/run-context.js';
import { buildMode, rendersIncremental, type BuildMode } from '../../../src/plan/build-mode.js';

function node(config: Record<string, unknown>, name = 'm'): ModelNode {
  return {
    resourceType: 'model', uniqueId: `model.p.${name}`, name, alias: name,
    file: { name, path: `models/${name}.sql`, absPath: `/x/models/${name}.sql`, rawSql: '', folders: [] },
    fqn: ['p', name], config, settings: parseModelSettings(config), refs: [], sources: [], dependsOn: [],
  };
}

const INC = { materialized: 'incremental', unique_key: 'day', partition_by: 'day' };
const MICRO = { materialized: 'incremental', incremental_strategy: 'microbatch', event_time: 'at', begin: '2026-09-01', batch_size: 'day', lookback: 2 };
const context = (extra: Partial<RunContext> = {}): RunContext => ({ ...PARSE_CONTEXT, vars: { as_of: '2026-09-05' }, ...extra });
const brief = (mode: BuildMode) => `${mode.kind}: ${mode.reason}`;

describe('buildMode: the one decision of how a model is built', () => {
  it('tables, views and ephemeral models have one mode each, whatever the warehouse holds', () => {
    expect(buildMode({ node: node({ materialized: 'table' }), existing: 'table', context: context() }).kind).toBe('full');
    expect(buildMode({ node: node({ materialized: 'view' }), existing: null, context: context() }).kind).toBe('view');
    expect(buildMode({ node: node({ materialized: 'ephemeral' }), existing: 'table', context: context() }).kind).toBe('ephemeral');
  });

  it('an incremental model: first build, existing view, --full-refresh, full_refresh config (beats the flag both ways), incremental', () => {
    expect(brief(buildMode({ node: node(INC), existing: null, context: context() }))).toBe('full: first build: the target does not exist yet');
    expect(brief(buildMode({ node: node(INC), existing: 'view', context: context() }))).toBe('full: the existing relation is a view');
    expect(brief(buildMode({ node: node(INC), existing: 'table', context: context({ fullRefresh: true }) }))).toBe('full: --full-refresh');
    expect(brief(buildMode({ node: node({ ...INC, full_refresh: true }), existing: 'table', context: context() }))).toBe('full: config full_refresh: true');
    expect(brief(buildMode({ node: node({ ...INC, full_refresh: false }), existing: 'table', context: context({ fullRefresh: true }) })))
      .toBe('incremental: is_incremental(): the target exists as a table (full_refresh: false beats --full-refresh, as in dbt)');
    // The opt-in refusal is api/run's; the mode is the same whatever full_refresh_ignored says.
    expect(buildMode({ node: node({ ...INC, full_refresh: false, full_refresh_ignored: 'error' }), existing: 'table', context: context({ fullRefresh: true }) }).kind).toBe('incremental');
    expect(brief(buildMode({ node: node(INC), existing: 'table', context: context() }))).toBe('incremental: is_incremental(): the target exists as a table');
  });

  it('a backfill is the context\'s typed range; only the guarded model checks its partitions against it', () => {
    const range = backfillOfVars({ start: '2026-09-01', end: '2026-09-03' });
    expect(range).toEqual({ start: '2026-09-01', end: '2026-09-03' });
    expect(backfillOfVars({ start: '2026-09-01' })).toBeUndefined();
    const plain = buildMode({ node: node(INC), existing: 'table', context: context({ backfill: range }) });
    expect(plain).toMatchObject({ kind: 'backfill', range, guarded: false });
    const guarded = buildMode({ node: node(INC), existing: 'table', context: context({ backfill: { ...range!, guarded: 'model.p.m' } }) });
    expect(guarded).toMatchObject({ kind: 'backfill', guarded: true });
    // A backfill of a model not built yet builds it in full.
    expect(buildMode({ node: node(INC), existing: null, context: context({ backfill: range }) }).kind).toBe('full');
  });

  it('microbatch: begin..as_of on a first build, the lookback after (plus never-built batches under fill_gaps: true), exactly the retried windows on retry', () => {
    const first = buildMode({ node: node(MICRO), existing: null, context: context(), builtBatches: () => { throw new Error('a first build does not read the ledger'); } });
    expect(first.kind === 'microbatch' && first.windows.batches.map((b) => b.label)).toEqual(['2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04', '2026-09-05']);
    expect(rendersIncremental(first)).toBe(false);
    let asked = 0;
    const built = () => (asked++, new Set(['2026-09-01', '2026-09-03', '2026-09-04', '2026-09-05']));
    // dbt's behaviour by default: the lookback only; the never-built batch is reported, not built.
    const later = buildMode({ node: node(MICRO), existing: 'table', context: context(), builtBatches: built });
    expect(later.kind === 'microbatch' && later.windows.batches.map((b) => `${b.label}:${b.reason}`)).toEqual(['2026-09-03:lookback', '2026-09-04:lookback', '2026-09-05:lookback']);
    expect(later.kind === 'microbatch' && later.windows.missed?.map((b) => b.label)).toEqual(['2026-09-02']);
    expect(asked).toBe(1);
    expect(rendersIncremental(later)).toBe(true);
    const filled = buildMode({ node: node({ ...MICRO, fill_gaps: true }), existing: 'table', context: context(), builtBatches: built });
    expect(filled.kind === 'microbatch' && filled.windows.batches.map((b) => `${b.label}:${b.reason}`)).toEqual(['2026-09-02:gap', '2026-09-03:lookback', '2026-09-04:lookback', '2026-09-05:lookback']);
    expect(asked).toBe(2);
    // The flags' range reads no ledger.
    const flags = buildMode({
      node: node({ ...MICRO, fill_gaps: true }), existing: 'table',
      context: context({ eventTime: { start: new Date('2026-09-02T00:00:00Z'), end: new Date('2026-09-03T00:00:00Z') } }),
      builtBatches: () => { throw new Error('a range run does not read the ledger'); },
    });
    expect(flags.kind === 'microbatch' && flags.windows.batches.map((b) => `${b.label}:${b.reason}`)).toEqual(['2026-09-02:flags']);
    const retry = buildMode({
      node: node(MICRO), existing: 'table',
      context: context({ retryBatches: new Map([['model.p.m', [{ start: '2026-09-02 00:00:00', end: '2026-09-03 00:00:00' }]]]) }),
      builtBatches: () => { throw new Error('a retry does not read the ledger'); },
    });
    expect(retry.kind === 'microbatch' && retry.windows.batches.map((b) => b.label)).toEqual(['2026-09-02']);
    // A full refresh rebuilds from begin without asking the ledger.
    const refreshed = buildMode({ node: node(MICRO), existing: 'table', context: context({ fullRefresh: true }), builtBatches: () => { throw new Error('not asked'); } });
    expect(refreshed).toMatchObject({ kind: 'microbatch', incremental: false, reason: '--full-refresh' });
  });

  it('is pure: the same input gives the same mode', () => {
    const input = { node: node(INC), existing: 'table' as const, context: context({ backfill: { start: 'a', end: 'b' } }) };
    expect(buildMode(input)).toEqual(buildMode(input));
  });
});

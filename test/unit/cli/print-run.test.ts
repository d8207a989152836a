import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeResult } from '../../../src/state/node-result.js';
import { printEvent, printSummary } from '../../../src/cli/print-run.js';

function captured(fn: () => void): string[] {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk).replace(/^\d\d:\d\d:\d\d {2}/, '').replace(/\n$/, ''));
    return true;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return out;
}

const base = {
  resourceType: 'model' as const,
  executionTime: 0.5,
  startedAt: '',
  completedAt: '',
  adapterResponse: {},
  relationName: '"daily"',
  rowsDeleted: 0,
  rowsInserted: 0,
  partitions: [],
  asOf: null,
  exitCode: 1,
};
const partial: NodeResult = {
  ...base,
  uniqueId: 'model.shop.daily',
  name: 'daily',
  status: 'partial success',
  message: 'PARTIAL SUCCESS (2/3 batches): batch 2024-01-02 failed: malformed JSON',
  batchResults: { successful: [['2024-01-01', '2024-01-02'], ['2024-01-03', '2024-01-04']], failed: [['2024-01-02', '2024-01-03']] },
  path: 'models/daily.sql',
};
const ok: NodeResult = { ...base, uniqueId: 'model.shop.raw', name: 'raw', status: 'success', message: 'SELECT 3', exitCode: 0 };

afterEach(() => vi.restoreAllMocks());

describe('a microbatch model with some failed batches: PARTIAL SUCCESS, as dbt prints it', () => {
  it('the result line', () => {
    const lines = captured(() => printEvent({ type: 'result', index: 2, total: 2, description: 'sql incremental model main.daily', result: partial }));
    expect(lines[0]).toMatch(/^2 of 2 PARTIALLY created sql incremental model main\.daily \.+ \[PARTIAL SUCCESS \(2\/3\) in 0\.50s\]$/);
  });

  it('the summary: named in the heading as dbt words it (EndOfRunSummary, 1.9 on), counted under ERROR in the Done line', () => {
    const lines = captured(() => printSummary([ok, partial], 1.5, { 'incremental model': 1, 'table model': 1 }));
    expect(lines).toContain('Completed with 1 partial success and 0 warnings');
    expect(lines).toContain('Failure in model daily (models/daily.sql)');
    expect(lines).toContain('  PARTIAL SUCCESS (2/3 batches): batch 2024-01-02 failed: malformed JSON');
    expect(lines.at(-1)).toBe('Done. PASS=1 WARN=0 ERROR=1 SKIP=0 TOTAL=2');
  });

  it("the heading in each case, as dbt's EndOfRunSummary words it", () => {
    const failed: NodeResult = { ...ok, uniqueId: 'model.shop.bad', name: 'bad', status: 'error', message: 'no such table' };
    const warned: NodeResult = { ...ok, uniqueId: 'test.shop.t', name: 't', resourceType: 'test', status: 'warn', message: 'Got 1 result' };
    const heading = (results: NodeResult[]) => captured(() => printSummary(results, 1, {})).find((l) => l.startsWith('Completed'));
    expect(heading([ok])).toBe('Completed successfully');
    expect(heading([ok, partial, { ...partial, uniqueId: 'model.shop.other', name: 'other' }])).toBe('Completed with 2 partial successes and 0 warnings');
    expect(heading([failed])).toBe('Completed with 1 error, 0 partial successes, and 0 warnings:');
    expect(heading([failed, partial, warned, warned])).toBe('Completed with 1 error, 1 partial success, and 2 warnings:');
    expect(heading([partial, warned])).toBe('Completed with 1 partial success and 1 warning');
    expect(heading([ok, warned])).toBe('Completed with 1 warning:');
  });
});

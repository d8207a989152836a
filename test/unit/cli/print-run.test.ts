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

  it('the summary: named in the heading, counted under ERROR in the Done line', () => {
    const lines = captured(() => printSummary([ok, partial], 1.5, { 'incremental model': 1, 'table model': 1 }));
    expect(lines).toContain('Completed with 0 errors, 1 partial success, and 0 warnings:');
    expect(lines).toContain('Failure in model daily (models/daily.sql)');
    expect(lines).toContain('  PARTIAL SUCCESS (2/3 batches): batch 2024-01-02 failed: malformed JSON');
    expect(lines.at(-1)).toBe('Done. PASS=1 WARN=0 ERROR=1 SKIP=0 TOTAL=2');
  });
});

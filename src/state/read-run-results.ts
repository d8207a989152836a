/**
 * target/run_results.json read back (by `retry` and `docs generate`): the
 * fields mini-dbt uses, checked before any is trusted. A file cut short,
 * overwritten with garbage or of another shape is reported as the problem
 * it has; the next run or build writes a new one.
 */
import { readFileSync } from 'node:fs';

export type BatchWindow = [string, string];

export interface StoredRunResults {
  readonly metadata?: { readonly invocation_id?: string };
  readonly args?: { readonly which?: string; readonly vars?: Record<string, unknown>; readonly fullRefresh?: boolean };
  readonly results: readonly {
    readonly unique_id: string;
    readonly status: string;
    readonly batch_results?: { readonly successful?: BatchWindow[]; readonly failed?: BatchWindow[] };
  }[];
}

export type RunResultsRead = { readonly ok: true; readonly file: StoredRunResults } | { readonly ok: false; readonly missing: boolean; readonly problem: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWindows = (v: unknown): boolean => v === undefined || (Array.isArray(v) && v.every((w) => Array.isArray(w) && w.length === 2 && typeof w[0] === 'string' && typeof w[1] === 'string'));

export function readRunResults(path: string): RunResultsRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { ok: false, missing: code === 'ENOENT' || code === 'ENOTDIR', problem: `cannot read it (${err instanceof Error ? err.message : String(err)})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (err) {
    return { ok: false, missing: false, problem: `it is not valid JSON (${(err instanceof Error ? err.message : String(err)).slice(0, 120)})` };
  }
  const problem = shapeProblem(value);
  return problem === undefined ? { ok: true, file: value as StoredRunResults } : { ok: false, missing: false, problem: `it is not a run results file (${problem})` };
}

function shapeProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not a JSON object';
  if (value.metadata !== undefined && (!isRecord(value.metadata) || (value.metadata.invocation_id !== undefined && typeof value.metadata.invocation_id !== 'string'))) return "malformed 'metadata'";
  const args = value.args;
  if (args !== undefined) {
    if (!isRecord(args)) return "'args' is not an object";
    if (args.which !== undefined && typeof args.which !== 'string') return "'args.which' is not a string";
    if (args.vars !== undefined && args.vars !== null && !isRecord(args.vars)) return "'args.vars' is not a mapping";
    if (args.fullRefresh !== undefined && args.fullRefresh !== null && typeof args.fullRefresh !== 'boolean') return "'args.fullRefresh' is not true or false";
  }
  if (!Array.isArray(value.results)) return "no 'results' list";
  for (const [i, r] of value.results.entries()) {
    if (!isRecord(r) || typeof r.unique_id !== 'string' || typeof r.status !== 'string') return `results[${i}] has no unique_id and status`;
    const batches = r.batch_results;
    if (batches !== undefined && (!isRecord(batches) || !isWindows(batches.successful) || !isWindows(batches.failed))) return `results[${i}].batch_results is malformed`;
  }
  return undefined;
}

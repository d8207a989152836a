/**
 * Where a nightly run's milliseconds go, measured in the bench run itself:
 * better-sqlite3's calls (statements, pragmas, close) are timed while an
 * extra nightly run goes (not in the timed rounds: timing each call adds a
 * microsecond or so to each), each call put in a part by its SQL, and the time
 * between the run's last ledger write and its close (writing target/) is
 * its own part. What no call accounts for is JavaScript: selecting,
 * rendering, planning, results.
 */
import Database from 'better-sqlite3';
import { median } from './side-by-side.js';

export const PARTS = ['model SQL', 'checks of the staged rows', 'planning reads', 'probe of the columns', 'ledger', 'open and close', 'artifacts', 'JavaScript'] as const;
export type Part = (typeof PARTS)[number];

/** The part a SQL text belongs to, by what it touches. */
function partOf(sql: string): Exclude<Part, 'artifacts' | 'JavaScript'> {
  // Without the query comment dbt puts before each statement (/* {"app": "dbt", ...} */), or after it (append).
  const text = sql.replace(/^\s*\/\*[\s\S]*?\*\/\s*/, '').replace(/\s*\/\*[\s\S]*?\*\/\s*$/, '').trimStart();
  if (/_mini_dbt_(runs|node_runs|partitions|migrations)\b/.test(text)) return 'ledger';
  if (text.includes('mini_dbt_probe')) return 'probe of the columns';
  if (text.includes('bench_bare_new')) return 'model SQL';
  if (text.includes('__mini_dbt_new')) {
    return /^(create|delete|insert|drop)\b/i.test(text) ? 'model SQL' : 'checks of the staged rows';
  }
  if (/^(begin|commit|rollback)\b/i.test(text)) return 'model SQL';
  if (/^pragma\b/i.test(text) || text === 'close' || /^select count\(\*\) from sqlite_master$/i.test(text)) return 'open and close';
  return 'planning reads';
}

interface Call {
  readonly sql: string;
  readonly start: number;
  readonly end: number;
}

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

/** Time every better-sqlite3 call into `calls` until the returned function is called. */
function recordCalls(calls: Call[]): () => void {
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, AnyFn>;
  probe.close();
  const dbProto = Database.prototype as unknown as Record<string, AnyFn>;
  const restore: (() => void)[] = [];
  // Only the outermost call counts (pragma() prepares and runs a statement itself).
  let depth = 0;
  const wrap = (proto: Record<string, AnyFn>, name: string, sqlOf: (self: unknown, args: unknown[]) => string): void => {
    const original = proto[name]!;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const start = performance.now();
      depth += 1;
      try {
        return original.apply(this, args);
      } finally {
        depth -= 1;
        if (depth === 0) calls.push({ sql: sqlOf(this, args), start, end: performance.now() });
      }
    };
    restore.push(() => {
      proto[name] = original;
    });
  };
  wrap(dbProto, 'exec', (_, args) => String(args[0]));
  wrap(dbProto, 'prepare', (_, args) => String(args[0]));
  wrap(dbProto, 'pragma', (_, args) => `pragma ${String(args[0])}`);
  wrap(dbProto, 'close', () => 'close');
  for (const name of ['run', 'get', 'all', 'iterate']) wrap(statementProto, name, (self) => (self as { source: string }).source);
  return () => {
    for (const undo of restore.reverse()) undo();
  };
}

/** Milliseconds per part of one run, from its calls. */
function split(calls: readonly Call[], total: number): Record<Part, number> {
  const parts = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  for (const call of calls) parts[partOf(call.sql)] += call.end - call.start;
  // From the last ledger write (the run's row marked finished) to the close: target/ is written.
  const lastIndex = (test: (c: Call) => boolean): number => {
    for (let i = calls.length - 1; i >= 0; i--) if (test(calls[i]!)) return i;
    return -1;
  };
  const lastLedger = lastIndex((c) => partOf(c.sql) === 'ledger');
  const close = lastIndex((c) => c.sql === 'close');
  if (lastLedger >= 0 && close > lastLedger) parts.artifacts = calls[close]!.start - calls[lastLedger]!.end;
  const accounted = PARTS.reduce((sum, p) => sum + parts[p], 0);
  parts.JavaScript = Math.max(0, total - accounted);
  return parts;
}

/** Run `work` (a nightly, or the bare side: its SQL counts as model SQL) once with its calls timed: the milliseconds of each part. */
export async function timedParts(work: () => Promise<unknown>): Promise<Record<Part, number>> {
  const calls: Call[] = [];
  const stop = recordCalls(calls);
  const t0 = performance.now();
  try {
    await work();
  } finally {
    stop();
  }
  return split(calls, performance.now() - t0);
}

/** The median of each part over runs. */
export function medianParts(runs: readonly Record<Part, number>[]): Record<Part, number> {
  return Object.fromEntries(PARTS.map((p) => [p, median(runs.map((r) => r[p]))])) as Record<Part, number>;
}

/** "11.20 = model SQL 8.90 + checks of the staged rows 0.05 + ..." in milliseconds (the parts add up to the whole run). */
export function formatBreakdown(parts: Record<Part, number>): string {
  const total = PARTS.reduce((sum, p) => sum + parts[p], 0);
  return `${total.toFixed(2)} = ${PARTS.filter((p) => parts[p] > 0).map((p) => `${p} ${parts[p].toFixed(2)}`).join(' + ')}`;
}

import { compileProject, type CompiledModel } from '../api/compile.js';
import type { CompiledSnapshot } from '../api/compile-snapshot.js';
import { planScript } from '../plan/node-plan.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors } from './terminal.js';

export interface CompileFlags extends CommonFlags {
  select?: string[];
  exclude?: string[];
  fullRefresh?: boolean;
  /** dbt's --empty (compile, and run --dry-run --empty). */
  empty?: boolean;
  json?: boolean;
  /** `run --dry-run`: only what a run would do now, not the two renderings. */
  planOnly?: boolean;
}

/** compile: both renderings of incremental models, and the statements a run would execute now. */
export function compileCommand(flags: CompileFlags): number {
  // `run --dry-run` plans what a run builds: snapshots are the snapshot command's.
  const project = compileProject({ ...sessionOptions(flags), select: flags.select, exclude: flags.exclude, fullRefresh: flags.fullRefresh, ...(flags.empty ? { empty: true } : {}), snapshots: !flags.planOnly });
  const compiled = project.models;
  const snapshots = project.snapshots;
  // The models' log() output, as dbt's compile prints it (on stderr under --json, which stdout carries).
  const analyses = project.analyses;
  const logs = [...compiled.flatMap((c) => c.logs), ...snapshots.flatMap((c) => c.logs), ...analyses.flatMap((c) => c.logs)];
  if (logs.length > 0) (flags.json ? process.stderr : process.stdout).write(`${logs.join('\n')}\n`);
  if (flags.json) {
    const out: Record<string, unknown>[] = compiled.map((c) => ({
      unique_id: c.node.uniqueId,
      full_sql: c.fullSql,
      incremental_sql: c.incrementalSql ?? null,
      window: c.window ?? null,
      plan: { mode: c.plan.mode, reason: c.plan.reason, strategy: c.plan.strategy ?? null, statements: c.plan.statements },
    }));
    for (const c of snapshots) {
      out.push({ unique_id: c.node.uniqueId, full_sql: c.sql, incremental_sql: null, window: null, plan: { mode: c.mode, reason: c.reason, strategy: c.node.settings.strategy, statements: [...c.statements] } });
    }
    for (const c of analyses) {
      out.push({ unique_id: c.node.uniqueId, full_sql: c.sql, incremental_sql: null, window: null, plan: { mode: 'analysis', reason: 'an analysis is compiled, never run', strategy: null, statements: [] } });
    }
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const out: string[] = [];
  for (const c of compiled) {
    out.push(colors.bold(`-- ${c.node.name} (${c.node.file.path}): ${c.node.settings.materialized}`));
    if (flags.planOnly) {
      // nothing: the plan below is the answer
    } else if (c.incrementalSql !== undefined) {
      out.push(colors.cyan('-- full build (first run or --full-refresh; is_incremental() is false):'), c.fullSql, '');
      out.push(colors.cyan('-- incremental run (is_incremental() is true):'), c.incrementalSql, '');
      out.push(colors.cyan(`-- window: ${describeWindow(c)}`), '');
    } else {
      out.push(c.fullSql, '');
    }
    out.push(colors.cyan(`-- a run now would: ${c.plan.mode}${c.plan.strategy ? ` with ${c.plan.strategy}` : ''} (${c.plan.reason})`), planScript(c.plan, { maxBatches: 3 }), '');
  }
  for (const c of snapshots) out.push(...snapshotLines(c));
  for (const c of analyses) out.push(colors.bold(`-- ${c.node.name} (${c.node.file.path}): analysis (compiled, never run)`), c.sql, '');
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/** A snapshot: its query (what dbt's compile writes to target/compiled), then what its next run would do. */
function snapshotLines(c: CompiledSnapshot): string[] {
  const lines = [colors.bold(`-- ${c.node.name} (${c.node.file.path}): snapshot, ${c.node.settings.strategy} strategy`), c.sql, ''];
  lines.push(colors.cyan(`-- a snapshot run now would: ${c.mode} (${c.reason})`));
  if (c.statements.length > 0) lines.push(c.statements.map((s) => `${s};`).join('\n'));
  lines.push('');
  return lines;
}

/** The partitions the incremental branch rewrites, in words. */
function describeWindow(c: CompiledModel): string {
  if (c.plan.batches) return `microbatch: each batch replaces its own [start, end) window of ${String(c.node.settings.eventTime)} (batches below)`;
  const part = c.node.settings.partitionColumn;
  const w = c.window;
  if (!w) return part ? `the incremental run rewrites the ${part} values its SELECT returns (no warehouse to compute them from yet)` : 'no partition_by: the incremental run rewrites the rows its SELECT returns';
  if (w.first === null) return `the incremental run would rewrite nothing now (its SELECT returns no rows)`;
  const span = w.first === w.last ? w.first : `${w.first}..${w.last}`;
  return `an incremental run now would rewrite ${w.partitions} partition${w.partitions === 1 ? '' : 's'} of ${part ?? 'the partition column'}: ${span} (${w.rows} rows); the full build rewrites all of them`;
}

import { compile } from '../api/compile.js';
import { planScript } from '../plan/node-plan.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors } from './terminal.js';

export interface CompileFlags extends CommonFlags {
  select?: string[];
  exclude?: string[];
  fullRefresh?: boolean;
  json?: boolean;
}

/** compile: both renderings of incremental models, and the statements a run would execute now. */
export function compileCommand(flags: CompileFlags): number {
  const compiled = compile({ ...sessionOptions(flags), select: flags.select, exclude: flags.exclude, fullRefresh: flags.fullRefresh });
  if (flags.json) {
    const out = compiled.map((c) => ({
      unique_id: c.node.uniqueId,
      full_sql: c.fullSql,
      incremental_sql: c.incrementalSql ?? null,
      plan: { mode: c.plan.mode, reason: c.plan.reason, strategy: c.plan.strategy ?? null, statements: c.plan.statements },
    }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const out: string[] = [];
  for (const c of compiled) {
    out.push(colors.bold(`-- ${c.node.name} (${c.node.file.path}): ${String(c.node.config.materialized)}`));
    if (c.incrementalSql !== undefined) {
      out.push(colors.cyan('-- full build (first run or --full-refresh; is_incremental() is false):'), c.fullSql, '');
      out.push(colors.cyan('-- incremental run (is_incremental() is true):'), c.incrementalSql, '');
    } else {
      out.push(c.fullSql, '');
    }
    out.push(colors.cyan(`-- a run now would: ${c.plan.mode}${c.plan.strategy ? ` with ${c.plan.strategy}` : ''} (${c.plan.reason})`), planScript(c.plan), '');
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

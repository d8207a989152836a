import { shellWord } from '../invocation/shell-word.js';
import { explainOrder, type ExplainOrderResult, type OrderRun, type OrderVersion } from '../api/explain-order.js';
import { previewValue } from '../errors/value-preview.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors } from './terminal.js';

export interface ExplainOrderFlags extends CommonFlags {
  model?: string;
  source?: string;
  idColumn?: string;
  json?: boolean;
}

/** explain-order <id>: one order followed through every recorded night, from its raw versions and the run ledger. */
export function explainOrderCommand(orderId: string, flags: ExplainOrderFlags): number {
  const result = explainOrder({ ...sessionOptions(flags), orderId, model: flags.model, source: flags.source, idColumn: flags.idColumn });
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${renderExplainOrder(result).join('\n')}\n`);
  return 0;
}

export function renderExplainOrder(r: ExplainOrderResult): string[] {
  const out: string[] = [];
  const id = String(r.order_id);
  out.push(colors.bold(`${r.id_column} ${id} in ${r.source}: ${r.event_time_column} ${r.partition}, so it counts in partition ${r.partition} of ${r.model}`));
  out.push('');
  out.push(`versions as they landed (${r.source} keeps every version; the latest one landed is the one that counts):`);
  const valueNames = Object.keys(r.versions[0]?.values ?? {});
  const widths = valueNames.map((k) => Math.max(k.length, ...r.versions.map((v) => previewValue(v.values[k]).length)));
  out.push(colors.dim(`  #  ${r.loaded_at_column.padEnd(12)} ${'days late'.padStart(9)}  ${valueNames.map((k, i) => k.padEnd(widths[i]!)).join('  ')}`));
  for (const v of r.versions) {
    const values = valueNames.map((k, i) => previewValue(v.values[k]).padEnd(widths[i]!)).join('  ');
    out.push(`  ${v.version}  ${previewValue(v.loaded_at).padEnd(12)} ${(v.days_late === null ? '-' : String(v.days_late)).padStart(9)}  ${values}`.trimEnd());
    out.push(`     ${fate(r, v)}`);
  }
  out.push('');
  const covering = r.runs.filter((run) => run.covered);
  out.push(`runs of ${r.model} that rewrote ${r.partition} (${covering.length} of the ${r.runs.length} successful runs in the run ledger):`);
  if (covering.length === 0) out.push(colors.yellow('  none: no recorded run rewrote this day'));
  else {
    out.push(colors.dim(`  ${'as of'.padEnd(12)} ${'mode'.padEnd(12)} ${'window'.padEnd(24)} counted`));
    for (const run of covering) out.push(`  ${(run.as_of ?? '-').padEnd(12)} ${run.mode.padEnd(12)} ${window(run).padEnd(24)} ${run.version_seen === null ? '-' : `version ${run.version_seen}`}`);
  }
  out.push('');
  const t = r.table_counts;
  const f = r.full_rebuild_counts;
  out.push(t.run === null
    ? `the table: no recorded run wrote ${r.partition}`
    : `the table counts ${describe(r, t.version)}: the last run that rewrote ${r.partition} was as of ${t.run.as_of ?? 'an unknown night'}`);
  out.push(`a full rebuild ${f.as_of ? `as of ${previewValue(f.as_of)} ` : ''}would count ${describe(r, f.version)}`);
  if (r.stale) {
    out.push(colors.red(`so ${r.partition} is stale: the table still counts an older version of ${r.id_column} ${id}`));
    out.push(`fix: mini-dbt backfill ${r.model} --start ${shellWord(r.partition)} --end ${shellWord(r.partition)} --reason "<why>"`);
  } else if (t.run !== null) {
    out.push(colors.green(`the table agrees with a full rebuild for ${r.id_column} ${id}`));
  }
  return out;
}

/** What happened to one version: which run applied it, or why none did. */
function fate(r: ExplainOrderResult, v: OrderVersion): string {
  if (v.applied_by) return colors.green(`applied by the run as of ${v.applied_by.as_of} (it rewrote ${window(v.applied_by)})`);
  const later = r.versions.find((w) => w.version > v.version && w.applied_by !== null);
  if (later) return colors.dim(`replaced by version ${later.version} before a run rewrote ${r.partition}`);
  const night = v.first_run_after;
  if (night === null) return colors.yellow(`not applied yet: no run since it landed`);
  if (night.covered) return colors.yellow(`not applied: a newer version landed before the run as of ${night.as_of}`);
  return colors.red(`NOT applied: the run as of ${night.as_of} rewrote ${window(night)}, and no run since rewrote ${r.partition}${v.days_late !== null ? ` (it landed ${v.days_late} days late)` : ''}`);
}

function window(run: OrderRun): string {
  if (run.window_start === null) return '-';
  return run.window_start === run.window_end ? run.window_start : `${run.window_start}..${run.window_end}`;
}

function describe(r: ExplainOrderResult, version: number | null): string {
  if (version === null) return 'no version (none had landed)';
  const v = r.versions[version - 1]!;
  const values = Object.values(v.values).map((x) => previewValue(x)).join(', ');
  return `version ${version} (landed ${previewValue(v.loaded_at)}${values ? `: ${values}` : ''})`;
}

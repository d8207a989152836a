import { lateness } from '../api/lateness.js';
import { requireWholeDays } from '../analysis/require-whole-days.js';
import { bar, pad } from './bar-chart.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors } from './terminal.js';
import { ProjectError } from '../errors/project-error.js';
import { previewValue } from '../errors/value-preview.js';

export interface LatenessFlags extends CommonFlags {
  lookback?: string;
  by?: string;
  eventTime?: string;
  loadedAt?: string;
  unit?: string;
  json?: boolean;
}

/** The chart stops after this many lines (absurd dates can make thousands); --json has every bin. */
const MAX_CHART_LINES = 120;

/** lateness <seed-or-source>: the distribution as a bar chart, percentiles, what a lookback misses. */
export function latenessCommand(name: string, flags: LatenessFlags): number {
  const unit = flags.unit === undefined || flags.unit === 'day' || flags.unit === 'days' ? 'day' : flags.unit === 'hour' || flags.unit === 'hours' ? 'hour' : undefined;
  if (unit === undefined) throw new ProjectError(`--unit must be day or hour, got '${previewValue(flags.unit)}'`);
  const lookback = flags.lookback === undefined ? undefined : requireWholeDays(flags.lookback, '--lookback');
  const report = lateness({ ...sessionOptions(flags), name, lookback, by: flags.by, eventTime: flags.eventTime, loadedAt: flags.loadedAt, unit });
  const units = `${unit}s`;
  // The first column fits its heading: 'days late' (9), 'hours late' (10).
  const col = units.length + 5;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const out: string[] = [];
  const { missed } = report;
  out.push(colors.bold(`Lateness of ${report.name}: ${report.loaded_at} - ${report.event_time}, in ${units} (${report.rows} rows)`));
  if (report.invalid_rows > 0) out.push(colors.yellow(`${report.invalid_rows} row(s) have no usable ${report.event_time} or ${report.loaded_at} (a date from 1000-01-01 to 9999-12-31) and are left out`));
  out.push('');
  const max = report.histogram.reduce((m, b) => Math.max(m, b.rows), 0);
  const width = Math.max(4, String(max).length);
  out.push(`${pad(`${units} late`, col)}  ${pad('rows', width)}`);
  const shown = report.histogram.length > MAX_CHART_LINES ? report.histogram.slice(0, MAX_CHART_LINES) : report.histogram;
  for (const bin of shown) {
    if (bin.days === missed.lookback + 1 && report.histogram.some((b) => b.days <= missed.lookback)) {
      out.push(colors.dim(`${' '.repeat(col + 2)}-- lookback ${missed.lookback}: rows below land after the last ${unit === 'day' ? 'night' : 'run'} that rewrites their ${unit} --`));
    }
    const drawn = bar(bin.rows, max);
    out.push(`${pad(bin.days, col)}  ${pad(bin.rows, width)}  ${bin.days > missed.lookback ? colors.red(drawn) : colors.green(drawn)}`);
  }
  const hidden = report.histogram.slice(shown.length);
  if (hidden.length > 0) {
    const rows = hidden.reduce((sum, b) => sum + b.rows, 0);
    out.push(colors.red(`${' '.repeat(col + 2)}... and ${rows} row(s) on ${hidden.length} more line(s), up to ${hidden[hidden.length - 1]!.days} ${units} late (all of them with --json)`));
  }
  out.push('');
  const p = report.percentiles;
  out.push(`percentiles (${units} late): p50 ${p.p50 ?? '-'}  p90 ${p.p90 ?? '-'}  p95 ${p.p95 ?? '-'}  p99 ${p.p99 ?? '-'}  max ${p.max ?? '-'}`);
  const share = report.rows > 0 ? ` (${((100 * missed.rows) / report.rows).toFixed(1)}% of rows)` : '';
  const groups = missed.groups ? `; by ${missed.by}: ${Object.entries(missed.groups).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}` : '';
  const missLine = `a lookback of ${missed.lookback} ${unit}(s) misses ${missed.rows} row(s)${share} on ${missed.days} ${unit}(s)${groups}`;
  out.push(missed.rows > 0 ? colors.red(missLine) : colors.green(missLine));
  out.push(colors.bold(`required lookback: ${report.required_lookback} ${unit}(s) (the longest lateness)`));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

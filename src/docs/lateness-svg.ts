import type { HistogramBin } from '../analysis/nearest-rank-percentile.js';
import { escapeXml } from './escape-xml.js';

const BAR = 26;
const LEFT = 46;
const TOP = 30;
const PLOT = 180;
const BOTTOM = 56;

/**
 * Rows per days late as an SVG bar chart (heights on a square-root scale: a
 * tail of a dozen rows beside 800 on time stays visible; each bar is labelled) (`rect.bar`, days and rows in
 * data-days and data-rows), a vertical line at the lookback (`line.lookback`),
 * and the bars beyond it marked missed (class `missed`, red): rows that land
 * after the last night whose window covers their day.
 */
export function latenessSvg(histogram: readonly HistogramBin[], lookback: number): string {
  const max = Math.max(1, ...histogram.map((b) => b.rows));
  const width = LEFT + Math.max(1, histogram.length) * BAR + 20;
  const height = TOP + PLOT + BOTTOM;
  const base = TOP + PLOT;
  const out: string[] = [];
  out.push(`<svg class="lateness-chart" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="rows per days late, lookback ${lookback}">`);
  out.push(`<line class="axis" x1="${LEFT}" y1="${base}" x2="${width - 10}" y2="${base}" stroke="#4a5568"></line>`);
  out.push(`<text class="axis-label" x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${max}</text><text class="axis-label" x="${LEFT - 6}" y="${base}" text-anchor="end">0</text>`);
  histogram.forEach((b, i) => {
    const h = b.rows === 0 ? 0 : Math.max(1, Math.round(Math.sqrt(b.rows / max) * PLOT));
    const x = LEFT + i * BAR + 3;
    const missed = b.days > lookback;
    const what = missed ? 'missed: they land after the last night whose window covers their day' : 'applied by a nightly run';
    out.push(`<rect class="bar ${missed ? 'missed' : 'applied'}" data-days="${b.days}" data-rows="${b.rows}" x="${x}" y="${base - h}" width="${BAR - 6}" height="${h}" fill="${missed ? '#c53030' : '#3182ce'}"><title>${escapeXml(`${b.rows} row${b.rows === 1 ? '' : 's'} ${b.days} day${b.days === 1 ? '' : 's'} late: ${what}`)}</title></rect>`);
    if (b.rows > 0) out.push(`<text class="bar-value" x="${x + (BAR - 6) / 2}" y="${base - h - 3}" text-anchor="middle">${b.rows}</text>`);
    out.push(`<text class="axis-label" x="${x + (BAR - 6) / 2}" y="${base + 14}" text-anchor="middle">${b.days}</text>`);
  });
  const at = histogram.findIndex((b) => b.days > lookback);
  const lineX = LEFT + (at === -1 ? histogram.length : at) * BAR;
  out.push(`<line class="lookback" data-lookback="${lookback}" x1="${lineX}" y1="${TOP - 14}" x2="${lineX}" y2="${base + 4}" stroke="#1a202c" stroke-width="2" stroke-dasharray="5 3"></line>`);
  out.push(`<text class="lookback-label" x="${lineX - 4}" y="${TOP - 4}" text-anchor="end">lookback ${lookback}</text><text class="lookback-label missed-label" x="${lineX + 4}" y="${TOP - 4}" fill="#c53030">missed \u2192</text>`);
  out.push(`<text class="axis-label" x="${LEFT + (histogram.length * BAR) / 2}" y="${base + 32}" text-anchor="middle">days late (load day - order day)</text>`);
  out.push(`<text class="axis-label" x="${LEFT + (histogram.length * BAR) / 2}" y="${base + 46}" text-anchor="middle">heights: square-root scale</text>`);
  out.push('</svg>');
  return out.join('\n');
}

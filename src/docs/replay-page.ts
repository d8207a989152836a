import type { ReplayGrid } from '../analysis/replay-grid.js';
import type { HistogramBin } from '../analysis/nearest-rank-percentile.js';
import { escapeXml } from './escape-xml.js';
import { latenessSvg } from './lateness-svg.js';
import { replayGridSvg } from './replay-svg.js';

/** What the docs site's Replay page shows: a replay of one incremental model, or why there is none. */
export type DocsReplayPage =
  | { readonly kind: 'none'; readonly reason: string }
  | {
      readonly kind: 'replay';
      readonly model: string;
      readonly from: string;
      readonly to: string;
      readonly lookback: number;
      readonly requiredLookback: number;
      readonly grids: readonly ReplayGrid[];
      /** The raw input the histogram counts, and its rows per days late. */
      readonly source: string;
      readonly histogram: readonly HistogramBin[];
      /** How long the replay took at generate time. */
      readonly seconds: number;
    };

/** The page as a hidden section of the one HTML file (shown at #replay). */
export function replayPageHtml(page: DocsReplayPage): string {
  if (page.kind === 'none') {
    return `<section id="replay-page" hidden><h2>Replay</h2><p class="muted replay-none">${escapeXml(page.reason)}</p></section>`;
  }
  const last = page.grids[0]?.rows.at(-1);
  const missed = page.histogram.filter((b) => b.days > page.lookback).reduce((n, b) => n + b.rows, 0);
  return `<section id="replay-page" hidden>
<h2>Replay of ${escapeXml(page.model)}, nights ${page.from}..${page.to}</h2>
<p>The nightly job simulated on a scratch copy of the warehouse when this site was generated (${page.seconds.toFixed(1)} s; the live warehouse was only read): a full build as of the night before ${page.from}, then one incremental run a night, each compared with a full rebuild as of that night. One row per night, one column per day; the lookback of the project (the <code>lookback_days</code> var, ${page.lookback}) next to the required one (${page.requiredLookback}, the longest lateness). ${last ? `After the last night, ${last.stale} day${last.stale === 1 ? ' is' : 's are'} stale with lookback ${page.lookback}.` : ''} The same grid in a terminal: <code>mini-dbt replay ${escapeXml(page.model)} --from ${page.from} --to ${page.to} --grid</code>.</p>
<div class="replay-figure">${replayGridSvg(page.grids)}</div>
<h3>How late the rows of ${escapeXml(page.source)} land</h3>
<p>Rows per days late; the dashed line is the lookback (${page.lookback}): the ${missed} row${missed === 1 ? '' : 's'} to its right land after the last night that rewrites their day, so a nightly run never applies them.</p>
<div class="replay-figure">${latenessSvg(page.histogram, page.lookback)}</div>
</section>`;
}

/** Shows the Replay page at #replay, the lineage graph otherwise. */
export const REPLAY_PAGE_SCRIPT = `
(function () {
  var page = document.getElementById('replay-page');
  var main = document.querySelector('main');
  function route() {
    var on = location.hash === '#replay';
    page.hidden = !on;
    main.hidden = on;
    document.body.classList.toggle('on-replay', on);
  }
  window.addEventListener('hashchange', route);
  route();
})();
`;

export const REPLAY_PAGE_STYLE = `
[hidden]{display:none !important}
nav a{margin-right:10px;color:#2b6cb0;text-decoration:none;font-weight:600}
#replay-page{flex:1;overflow:auto;padding:12px 18px}
#replay-page h2{font-size:18px;margin:4px 0 8px}
#replay-page p{max-width:980px}
.replay-figure{overflow-x:auto;margin:8px 0 18px}
.replay-figure text{font:9px ui-monospace,Menlo,monospace;fill:#2d3748}
.replay-figure .grid-title,.replay-figure .lookback-label{font:bold 11px system-ui,sans-serif}
.replay-figure .legend-text{font:11px system-ui,sans-serif}
.replay-figure .axis-label{font-size:10px}
.replay-figure .missed-label,.replay-figure .stale-count.nonzero{fill:#c53030}
`;

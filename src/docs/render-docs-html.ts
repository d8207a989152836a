import type { DocsSite } from './docs-data.js';
import { DOCS_PAGE_SCRIPT } from './docs-page-script.js';
import { DOCS_PAGE_STYLE, KIND_COLORS } from './docs-page-style.js';
import { REPLAY_PAGE_SCRIPT, REPLAY_PAGE_STYLE, replayPageHtml, type DocsReplayPage } from './replay-page.js';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON that is safe inside a <script> element. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** One self-contained HTML file: data, style, script and SVG all inline, so it opens from file://. */
export function renderDocsHtml(site: DocsSite, replay: DocsReplayPage = { kind: 'none', reason: 'not generated' }): string {
  const kinds = [...new Set(site.nodes.map((n) => n.kind))].sort();
  const legend = kinds.map((k) => `<span class="legend-item"><span class="swatch" style="background:${KIND_COLORS[k] ?? KIND_COLORS.other}"></span>${escapeHtml(k)}</span>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(site.project)} · mini-dbt docs</title>
<style>${DOCS_PAGE_STYLE}${REPLAY_PAGE_STYLE}</style>
</head>
<body>
<header>
  <h1>${escapeHtml(site.project)}</h1>
  <nav><a href="#" id="nav-lineage">Lineage</a><a href="#replay" id="nav-replay">Replay</a></nav>
  <span class="meta">generated ${escapeHtml(site.generatedAt)} from ${escapeHtml(site.database)}</span>
  <input id="search" type="search" placeholder="find a node (Enter selects)">
  <label><input id="show-tests" type="checkbox" checked> tests</label>
  <span class="legend">${legend}</span>
</header>
<main>
  <svg id="graph" xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMinYMin meet">
    <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#8a94a6"></path></marker></defs>
  </svg>
  <aside id="details"><p class="muted">Click a node in the graph to see its description, columns, tests, config, SQL and run history.</p></aside>
</main>
${replayPageHtml(replay)}
<script id="docs-data" type="application/json">${inlineJson(site)}</script>
<script>${DOCS_PAGE_SCRIPT}</script>
<script>${REPLAY_PAGE_SCRIPT}</script>
</body>
</html>
`;
}

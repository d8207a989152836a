/** Node colors by materialization (and resource type for the rest). */
export const KIND_COLORS: Readonly<Record<string, string>> = {
  table: '#2b6cb0',
  view: '#2f855a',
  incremental: '#c05621',
  ephemeral: '#718096',
  seed: '#6b46c1',
  source: '#2c7a7b',
  test: '#b83280',
  snapshot: '#975a16',
  other: '#4a5568',
};

const kindRules = Object.entries(KIND_COLORS)
  .map(([kind, color]) => `.node.kind-${kind} rect{fill:${color}}.badge.kind-${kind}{background:${color}}`)
  .join('\n');

export const DOCS_PAGE_STYLE = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a202c;height:100vh;display:flex;flex-direction:column}
header{display:flex;align-items:center;gap:14px;padding:8px 14px;border-bottom:1px solid #e2e8f0;background:#f7fafc;flex-wrap:wrap}
header h1{font-size:18px;margin:0}
.meta{color:#718096;font-size:12px}
#search{padding:4px 8px;border:1px solid #cbd5e0;border-radius:4px;min-width:220px}
.legend{display:flex;gap:10px;font-size:12px;color:#4a5568}
.legend-item{display:inline-flex;align-items:center;gap:4px}
.swatch{width:12px;height:12px;border-radius:3px;display:inline-block}
main{flex:1;display:flex;min-height:0}
#graph{flex:1;min-width:0;height:100%;cursor:grab;background:#fff}
#details{width:46%;max-width:760px;overflow:auto;padding:12px 18px;border-left:1px solid #e2e8f0}
.node{cursor:pointer}
.node rect{stroke:#1a202c;stroke-width:0}
.node text{fill:#fff;font-size:12px;font-family:ui-monospace,Menlo,monospace;pointer-events:none}
.node.test text{font-size:10px}
.node.selected rect{stroke-width:3;stroke:#f6e05e}
.node.match rect{stroke-width:3;stroke:#ed64a6}
.node.dim,.edge.dim{opacity:.18}
.edge{fill:none;stroke:#a0aec0;stroke-width:1.4}
body.hide-tests .node.test,body.hide-tests .edge[data-to^="test."]{display:none}
${kindRules}
.title{display:flex;align-items:center;gap:10px}
.title h2{margin:4px 0;font-size:20px;word-break:break-all}
.badge{color:#fff;border-radius:4px;padding:1px 8px;font-size:12px}
.path{color:#718096;font-size:12px;word-break:break-all}
h3{font-size:14px;margin:16px 0 6px;border-bottom:1px solid #edf2f7;padding-bottom:3px}
pre{background:#f7fafc;border:1px solid #e2e8f0;border-radius:4px;padding:8px;overflow:auto;font-size:12px;white-space:pre-wrap}
table{border-collapse:collapse;width:100%;font-size:12px}
th,td{border-bottom:1px solid #edf2f7;text-align:left;padding:3px 6px;vertical-align:top}
.muted{color:#718096}
.status-success,.status-pass{color:#2f855a;font-weight:600}
.status-error,.status-fail{color:#c53030;font-weight:600}
.status-warn{color:#b7791f;font-weight:600}
.stale{color:#c05621;font-weight:600}
ul.tests{padding-left:18px;margin:4px 0}
.description{white-space:pre-wrap;margin:8px 0}
table.columns td:nth-child(3){white-space:pre-wrap}
select.history-key{margin:4px 0 8px;max-width:100%}
`;

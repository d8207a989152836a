import dagre from '@dagrejs/dagre';
import type { DocsEdge, DocsNode } from './docs-data.js';

const CHAR_WIDTH = 7.2;

/**
 * Lay the lineage graph out left to right with dagre (the layout runs here,
 * at generate time; the page only draws the result, so it needs no library).
 */
export function layoutGraph(nodes: DocsNode[], links: readonly { from: string; to: string }[]): { edges: DocsEdge[]; width: number; height: number } {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) {
    const test = node.resourceType === 'test';
    g.setNode(node.id, { width: Math.min(test ? 260 : 320, Math.max(90, node.name.length * (test ? 6.2 : CHAR_WIDTH) + 28)), height: test ? 24 : 34 });
  }
  for (const link of links) if (g.hasNode(link.from) && g.hasNode(link.to)) g.setEdge(link.from, link.to);
  dagre.layout(g);
  for (const node of nodes) {
    const placed = g.node(node.id);
    Object.assign(node, { x: placed.x, y: placed.y, width: placed.width, height: placed.height });
  }
  const edges = g.edges().map((e: { v: string; w: string }) => ({ from: e.v, to: e.w, points: ((g.edge(e) as { points?: { x: number; y: number }[] }).points ?? []).map((p) => ({ x: p.x, y: p.y })) }));
  const { width = 0, height = 0 } = g.graph();
  return { edges, width, height };
}

import type { Manifest, ModelNode } from '../compile/manifest.js';
import { renderModel, type RenderedModel, type RenderModelOptions } from '../compile/render-model.js';

/** How many renders one compound SELECT unions (SQLite allows 500 terms per compound). */
const TERMS_PER_COMPOUND = 100;

/**
 * A backfill of several disjoint ranges in one publish: the model rendered
 * once per range, with its `start` and `end` vars set to that range (what
 * `run --vars '{start, end}'` of that range renders), and the renders staged
 * as one `union all`. Each render reads only its own days, so the SELECT
 * costs the ranges, not their envelope.
 */
export function renderBackfillRanges(
  manifest: Manifest,
  node: ModelNode,
  ranges: readonly { readonly start: string; readonly end: string }[],
  options: RenderModelOptions,
): RenderedModel {
  const renders = ranges.map((r) => renderModel({ ...manifest, vars: { ...manifest.vars, start: r.start, end: r.end } }, node, options));
  const terms = renders.map((r, i) => `select * from (\n${r.sql}\n) as range_${i}`);
  const chunks: string[] = [];
  for (let i = 0; i < terms.length; i += TERMS_PER_COMPOUND) chunks.push(terms.slice(i, i + TERMS_PER_COMPOUND).join('\nunion all\n'));
  const sql = chunks.length === 1 ? chunks[0]! : chunks.map((c, i) => `select * from (\n${c}\n) as ranges_${i}`).join('\nunion all\n');
  return { sql };
}

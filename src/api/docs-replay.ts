import type { ModelNode } from '../compile/manifest.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import { addDays, isIsoDate } from '../feed/iso-date.js';
import { latenessReport } from '../analysis/lateness-report.js';
import { replayGrids } from '../analysis/replay-grid.js';
import { requireWholeDays } from '../analysis/require-whole-days.js';
import type { DocsReplayPage } from '../docs/replay-page.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import { replay } from './replay.js';
import type { Session } from './session.js';

/** The most nights the docs site replays (the last two months of the feed), so generating stays a few seconds. */
export const DOCS_REPLAY_NIGHTS = 61;

/**
 * The docs site's Replay page: the first incremental model (by name) with a
 * time window (partitioned, reading a raw input that declares event_time and
 * loaded_at) replayed over the last nights of its raw rows (at most
 * DOCS_REPLAY_NIGHTS, ending at the latest load), on a scratch copy as
 * `replay` does, plus that input's lateness histogram. A page saying why
 * when there is no such model or nothing to replay.
 */
export async function docsReplay(session: Session, db: Warehouse | undefined): Promise<DocsReplayPage> {
  const candidates = [...session.manifest.nodes.values()]
    .filter((n): n is ModelNode => n.resourceType === 'model' && n.settings.materialized === 'incremental' && n.settings.partitionColumn !== undefined)
    .map((node) => ({ node, source: timeSourcesOf(session.manifest, session.graph, node.uniqueId).find((s) => s.settings.eventTime !== undefined) }))
    .filter((c) => c.source !== undefined)
    .sort((a, b) => a.node.name.localeCompare(b.node.name));
  const picked = candidates[0];
  if (picked === undefined || picked.source === undefined) {
    return { kind: 'none', reason: 'No incremental model with a time window: the page replays an incremental model partitioned by day (partition_by) that reads a seed or source declaring event_time and loaded_at.' };
  }
  const { node, source } = picked;
  const columns = { eventTime: source.settings.eventTime!, loadedAt: source.settings.loadedAt! };
  if (db === undefined || relationKind(db, source.alias, source.schema) !== 'table') {
    return { kind: 'none', reason: `No replay of ${node.name}: ${source.name} is not in the warehouse yet (run mini-dbt seed or build, then docs generate).` };
  }
  const span = db.prepare(`select min(${dialect.dateOf(quoteIdentifier(columns.eventTime))}) as first, max(${dialect.dateOf(quoteIdentifier(columns.loadedAt))}) as last from ${qualifiedName(source.schema, source.alias)}`).get() as { first: unknown; last: unknown };
  if (!isIsoDate(span.first) || !isIsoDate(span.last) || span.first >= span.last) {
    return { kind: 'none', reason: `No replay of ${node.name}: ${source.name} has no rows over two days or more.` };
  }
  const to = span.last;
  const earliest = addDays(span.first, 1);
  const window = addDays(to, -(DOCS_REPLAY_NIGHTS - 1));
  const from = earliest > window ? earliest : window;
  const started = performance.now();
  try {
    const result = await replay({ session, model: node.name, from, to });
    const seconds = (performance.now() - started) / 1000;
    const lookback = requireWholeDays(session.manifest.vars.lookback_days ?? 0, "var 'lookback_days'");
    const report = latenessReport(db, { relation: source.alias, schema: source.schema, columns, lookback });
    return { kind: 'replay', model: node.name, from, to, lookback: result.lookback, requiredLookback: result.required_lookback, grids: replayGrids(result), source: source.name, histogram: report.histogram, seconds };
  } catch (err) {
    if (!(err instanceof ProjectError)) throw err;
    return { kind: 'none', reason: `No replay of ${node.name}: ${err.message}` };
  }
}

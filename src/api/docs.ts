import { randomUUID } from 'node:crypto';
import { warehouseExists } from '../engine/warehouse-exists.js';
import { join } from 'node:path';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { collectDocs } from '../docs/collect-docs.js';
import type { DocsSite } from '../docs/docs-data.js';
import { renderDocsHtml } from '../docs/render-docs-html.js';
import { warnUser } from '../errors/user-warning.js';
import { writeArtifact } from '../state/artifact-write-error.js';
import { manifestJson } from '../state/manifest-json.js';
import { catalogJson } from '../state/catalog-json.js';
import { readRunResults } from '../state/read-run-results.js';
import { loadSession, type SessionOptions } from './session.js';
import { docsReplay } from './docs-replay.js';

export interface DocsOptions extends SessionOptions {
  /** Render compiled SQL for every model and test (default true). */
  readonly compile?: boolean;
  /** Replay the incremental model for the Replay page (default true; a few seconds on two months of rows). */
  readonly replay?: boolean;
}

export interface GeneratedDocs {
  /** target/index.html, absolute. */
  readonly indexPath: string;
  readonly site: DocsSite;
  /** The Replay page's model and nights and how long its replay took (null: none, see the page). */
  readonly replay: { readonly model: string; readonly from: string; readonly to: string; readonly seconds: number } | null;
}

/** Test statuses of the last run, from target/run_results.json when there is a usable one. */
function lastTestStatuses(path: string, shown: string): Map<string, string> {
  const out = new Map<string, string>();
  const read = readRunResults(path);
  if (!read.ok) {
    if (!read.missing) warnUser(`ignoring ${shown} (the test statuses of the last run): ${read.problem}; the next run or build writes a new one`);
    return out;
  }
  for (const r of read.file.results) if (r.unique_id.startsWith('test.')) out.set(r.unique_id, r.status);
  return out;
}

/**
 * `docs generate`: a static site in target/ (index.html with everything
 * inline, so it opens from file://) plus manifest.json and dbt's catalog.json. Reads the warehouse
 * (read-only) for columns, the run ledger and stale partitions when it exists.
 */
export async function generateDocs(options: DocsOptions = {}): Promise<GeneratedDocs> {
  const session = loadSession(options);
  const { project, manifest, graph } = session;
  const target = join(project.root, project.paths.target);
  const db: Warehouse | undefined = warehouseExists(project.databasePath) ? openProjectWarehouse(project, { readonly: true }) : undefined;
  try {
    const site = collectDocs({ manifest, graph, db, testStatuses: lastTestStatuses(join(target, 'run_results.json'), `${project.paths.target}/run_results.json`), compile: options.compile });
    const indexPath = join(target, 'index.html');
    const replay = options.replay === false ? { kind: 'none' as const, reason: 'Not generated: docs generate ran with --no-replay.' } : await docsReplay(session, db);
    writeArtifact(project.root, indexPath, renderDocsHtml(site, replay));
    const invocationId = randomUUID();
    writeArtifact(project.root, join(target, 'manifest.json'), `${JSON.stringify(manifestJson(manifest, graph, invocationId), null, 2)}\n`);
    writeArtifact(project.root, join(target, 'catalog.json'), `${JSON.stringify(catalogJson(manifest, db, invocationId), null, 2)}\n`);
    return { indexPath, site, replay: replay.kind === 'replay' ? { model: replay.model, from: replay.from, to: replay.to, seconds: replay.seconds } : null };
  } finally {
    db?.close();
  }
}

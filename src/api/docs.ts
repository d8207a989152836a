import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWarehouse, type Warehouse } from '../db/open-warehouse.js';
import { collectDocs } from '../docs/collect-docs.js';
import type { DocsSite } from '../docs/docs-data.js';
import { renderDocsHtml } from '../docs/render-docs-html.js';
import { manifestJson } from '../state/manifest-json.js';
import { loadSession, type SessionOptions } from './session.js';

export interface DocsOptions extends SessionOptions {
  /** Render compiled SQL for every model and test (default true). */
  readonly compile?: boolean;
}

export interface GeneratedDocs {
  /** target/index.html, absolute. */
  readonly indexPath: string;
  readonly site: DocsSite;
}

/** Test statuses of the last run, from target/run_results.json when there is one. */
function lastTestStatuses(path: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(path)) return out;
  try {
    const results = (JSON.parse(readFileSync(path, 'utf8')) as { results?: { unique_id?: string; status?: string }[] }).results ?? [];
    for (const r of results) if (r.unique_id?.startsWith('test.') && r.status) out.set(r.unique_id, r.status);
  } catch {
    // an unreadable run_results.json only loses the test statuses
  }
  return out;
}

/**
 * `docs generate`: a static site in target/ (index.html with everything
 * inline, so it opens from file://) plus manifest.json. Reads the warehouse
 * (read-only) for columns, the run ledger and stale partitions when it exists.
 */
export function generateDocs(options: DocsOptions = {}): GeneratedDocs {
  const { project, manifest, graph } = loadSession(options);
  const target = join(project.root, project.paths.target);
  const db: Warehouse | undefined = existsSync(project.databasePath) ? openWarehouse(project.databasePath, { readonly: true, busyTimeoutMs: project.busyTimeoutMs }) : undefined;
  try {
    const site = collectDocs({ manifest, graph, db, testStatuses: lastTestStatuses(join(target, 'run_results.json')), compile: options.compile });
    mkdirSync(target, { recursive: true });
    const indexPath = join(target, 'index.html');
    writeFileSync(indexPath, renderDocsHtml(site));
    writeFileSync(join(target, 'manifest.json'), `${JSON.stringify(manifestJson(manifest, graph, randomUUID()), null, 2)}\n`);
    return { indexPath, site };
  } finally {
    db?.close();
  }
}

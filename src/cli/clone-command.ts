import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { clone } from '../api/clone.js';
import { loadSession } from '../api/session.js';
import type { RunEvent } from '../state/node-result.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { printFoundStats } from './found-stats.js';
import { printEvent, printSummary } from './print-run.js';
import { line } from './terminal.js';
import { resourceTypesOption } from './resource-type-option.js';

export interface CloneFlags extends CommonFlags {
  select?: string[];
  exclude?: string[];
  fullRefresh?: boolean;
  resourceType?: string[];
  excludeResourceType?: string[];
}

/** dbt's clone lines: `1 of 3 START clone model.shop.stg`, then `OK created clone model.shop.stg ... [CREATE VIEW in 0.01s]` (or `[No-op ...]`), for seeds and snapshots too. */
function printCloneEvent(event: RunEvent): void {
  printEvent(event.type === 'result' ? { ...event, result: { ...event.result, resourceType: 'model' } } : event);
}

/** clone: one relation a selected node in the target reading the --state's; exit 1 when one failed. */
export function cloneCommand(flags: CloneFlags): number {
  const options = sessionOptions(flags);
  const session = loadSession(options);
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  printFoundStats(session.manifest);
  line();
  const resourceTypes = resourceTypesOption(flags.resourceType, flags.excludeResourceType);
  const result = clone({ ...options, session, select: flags.select, exclude: flags.exclude, fullRefresh: flags.fullRefresh, ...(resourceTypes ? { resourceTypes } : {}), onEvent: printCloneEvent });
  if (result.results.length === 0) {
    line('Nothing to do. Try checking your model configs and model specification args');
    return 0;
  }
  const kinds: Record<string, number> = {};
  for (const r of result.results) {
    const node = session.manifest.nodes.get(r.uniqueId);
    const kind = r.resourceType === 'snapshot' ? 'snapshot' : node?.resourceType === 'model' ? `${node.settings.materialized} model` : 'seed';
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  printSummary(result.results, result.elapsedSeconds, kinds);
  return result.exitCode;
}

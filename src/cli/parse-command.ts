import { relative } from 'node:path';
import { parseProject } from '../api/parse-project.js';
import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { line } from './terminal.js';
import { printFoundStats } from './found-stats.js';

/** parse: the project loaded and checked, target/manifest.json written; exit 2 on a parse error. */
export function parseCommand(flags: CommonFlags): number {
  const { session, manifestPath } = parseProject(sessionOptions(flags));
  const { manifest, project } = session;
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  printFoundStats(manifest);
  line(`Wrote ${relative(project.root, manifestPath)}`);
  return 0;
}

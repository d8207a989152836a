import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generateDocs } from '../api/docs.js';
import { loadSession } from '../api/session.js';
import { serveDocs } from '../docs/serve-docs.js';
import { ProjectError } from '../errors/project-error.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { line } from './terminal.js';

export interface DocsGenerateFlags extends CommonFlags {
  compile?: boolean;
  replay?: boolean;
}

export interface DocsServeFlags extends CommonFlags {
  port?: string;
  host?: string;
}

/** docs generate: write target/index.html. */
export async function docsGenerateCommand(flags: DocsGenerateFlags): Promise<number> {
  const { indexPath, site, replay } = await generateDocs({ ...sessionOptions(flags), compile: flags.compile, replay: flags.replay });
  const count = (type: string) => site.nodes.filter((n) => n.resourceType === type).length;
  line(`Catalog: ${count('model')} models, ${count('seed')} seeds, ${count('source')} sources, ${count('test')} data tests`);
  if (replay) line(`Replay page: ${replay.model} replayed over nights ${replay.from}..${replay.to} on a scratch copy in ${replay.seconds.toFixed(1)}s (--no-replay skips it)`);
  line(`Wrote the docs site to ${relative(process.cwd(), indexPath) || indexPath} (open it in a browser, or run mini-dbt docs serve)`);
  return 0;
}

/** docs serve: serve target/ until interrupted. */
export async function docsServeCommand(flags: DocsServeFlags): Promise<number> {
  const { project } = loadSession(sessionOptions(flags));
  const dir = join(project.root, project.paths.target);
  if (!existsSync(join(dir, 'index.html'))) {
    throw new ProjectError(`no docs site in ${relative(process.cwd(), dir) || dir}`, { hint: 'run mini-dbt docs generate first' });
  }
  const port = flags.port === undefined ? 8080 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ProjectError(`--port must be a port number, got '${flags.port}'`);
  const { server, url } = await serveDocs(dir, { port, host: flags.host });
  line(`Serving docs at ${url} (Ctrl+C to stop)`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

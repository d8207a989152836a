import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { ProjectError } from '../errors/project-error.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8', '.json': 'application/json', '.js': 'text/javascript', '.css': 'text/css', '.sql': 'text/plain; charset=utf-8', '.svg': 'image/svg+xml',
};

/** Serve the files under `dir` (the docs site in target/) on localhost; `/` is index.html. Resolves once listening. */
export function serveDocs(dir: string, options: { port?: number; host?: string } = {}): Promise<{ server: Server; url: string }> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request\n');
      return;
    }
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if ((file !== root && !file.startsWith(root + sep)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  const host = options.host ?? '127.0.0.1';
  const wanted = options.port ?? 8080;
  return new Promise((resolvePromise, reject) => {
    server.once('error', (err) => reject(listenError(err, wanted, host)));
    server.listen(wanted, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolvePromise({ server, url: `http://${host}:${port}/` });
    });
  });
}

/** Why the server could not listen, as a user error: a busy port suggests the next one. */
function listenError(err: Error, port: number, host: string): Error {
  const code = (err as { code?: unknown }).code;
  if (code === 'EADDRINUSE') return new ProjectError(`port ${port} is in use; try --port ${port < 65535 ? port + 1 : 8080}`);
  if (code === 'EACCES') return new ProjectError(`port ${port} needs privileges this user does not have; try --port ${port < 1024 ? 8080 : port + 1}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ProjectError(`cannot listen on host '${host}': it is not an address of this machine`, { hint: 'try --host 127.0.0.1' });
  return err;
}

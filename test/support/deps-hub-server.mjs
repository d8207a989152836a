// A package hub for tests: serves a folder of static files (api/v1/index.json,
// api/v1/<org>/<name>.json, tarballs/...) on 127.0.0.1, with `{{BASE}}` in JSON
// replaced by the server's own URL. Imported by tests, or run as a child process
// (node deps-hub-server.mjs <folder> <port-file>) for a CLI run with spawnSync.
import { createServer } from 'node:http';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Start serving `dir`; resolves to { url, requests (each path asked for), close() }. */
export function startHubServer(dir) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const file = join(dir, normalize(path).replace(/^([/\\])+/, ''));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"not found"}');
      return;
    }
    if (file.endsWith('.json')) {
      const base = `http://127.0.0.1:${server.address().port}/`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(file, 'utf8').replaceAll('{{BASE}}', base));
    } else {
      res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(file));
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, portFile] = process.argv.slice(2);
  const hub = await startHubServer(dir);
  // Written aside and renamed, so a reader never sees the file half written (an empty URL).
  writeFileSync(`${portFile}.tmp`, hub.url);
  renameSync(`${portFile}.tmp`, portFile);
}

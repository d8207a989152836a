// Bundle the CLI and the library into dist/bundle/: index.js, the package's
// API, as ES modules sharing chunks (a script importing the package loads a
// few files instead of ~275 modules); cli.cjs, the whole CLI as one CommonJS
// file (each command's modules still initialised only when it runs); main.cjs,
// the bin, which answers an unchanged project's ls itself or runs cli.cjs
// through V8's code cache (src/cli/cli-loader.ts).
// better-sqlite3 stays external (a native addon); chokidar and fsevents are
// nunjucks' optional file watchers, never used here.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
// The package's API (index.js), ES modules sharing chunks.
await build({
  entryPoints: { index: join(root, 'src', 'index.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'chokidar', 'fsevents'],
  banner: { js: "import { createRequire as __miniDbtCreateRequire } from 'node:module'; const require = __miniDbtCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The CLI as one CommonJS file, which the bin (main.cjs, src/cli/cli-loader.ts) runs through V8's code
// cache: a start then skips parsing and compiling the bundle (ES modules have no code cache on Node 20).
// Whitespace and syntax are minified, names kept (a stack still names its functions): V8 still reads and
// hashes the whole source at every start, and 3.2 MB -> 2.2 MB took a one-model `run` from 98.5 to 90.1 ms
// (medians of 40 alternated starts).
await build({
  entryPoints: [join(root, 'src', 'cli', 'main.ts')],
  outfile: join(outdir, 'cli.cjs'),
  minifyWhitespace: true,
  minifySyntax: true,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'chokidar', 'fsevents'],
  define: { 'import.meta.url': '__miniDbtModuleUrl' },
  banner: { js: "const __miniDbtModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
// The node pool's thread (src/execute/node-pool.ts: --threads on PostgreSQL), next to cli.cjs and the
// package's chunks, which start it from there.
await build({
  entryPoints: [join(root, 'src', 'execute', 'node-pool-worker.ts')],
  outfile: join(outdir, 'node-pool-worker.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'chokidar', 'fsevents'],
  define: { 'import.meta.url': '__miniDbtModuleUrl' },
  banner: { js: "const __miniDbtModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
// The bin (main.cjs, src/cli/cli-loader.ts): a CommonJS file, so Node starts it without its ES module
// loader (about 10 ms of CPU) and requires node:fs, node:path... without building an ES module facade of
// each (some 4 ms), in a start that an unchanged project's `ls` answers in (parse/ls-answer-cache.ts).
await build({
  entryPoints: [join(root, 'src', 'cli', 'cli-loader.ts')],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  outfile: join(outdir, 'main.cjs'),
  define: { 'import.meta.url': '__miniDbtModuleUrl' },
  banner: { js: "#!/usr/bin/env node\nconst __miniDbtModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

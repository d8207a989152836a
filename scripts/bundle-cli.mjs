// Bundle the CLI and the library into dist/bundle/ (main.js: the bin, with
// lazily loaded command chunks; index.js: the package's API, sharing the
// chunks): a cold `mini-dbt ls`, or a script importing the package, then
// loads a few files instead of ~275 ES modules.
// better-sqlite3 stays external (a native addon); chokidar and fsevents are
// nunjucks' optional file watchers, never used here.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, 'src', 'cli', 'main.ts'), index: join(root, 'src', 'index.ts') },
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

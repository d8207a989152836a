// Link the repo's own CLI into node_modules/.bin so `npx mini-dbt ...` works
// from the repo root right after `npm install` (npm links the bins of
// dependencies, not of the root package itself).
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'dist', 'bundle', 'main.cjs');
const binDir = join(root, 'node_modules', '.bin');
const link = join(binDir, 'mini-dbt');
if (!existsSync(target)) {
  console.error(`link-local-bin: ${target} is missing; run npm run build first`);
  process.exit(1);
}
chmodSync(target, 0o755);
mkdirSync(binDir, { recursive: true });
rmSync(link, { force: true });
symlinkSync(relative(binDir, target), link);

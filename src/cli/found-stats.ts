import type { Manifest } from '../compile/manifest.js';
import { line } from './terminal.js';

/** dbt's `Found 2 models, 1 seed, 3 data tests, 12 macros` line (what the project holds, before anything runs). */
export function printFoundStats(manifest: Manifest): void {
  const counts = { model: manifest.models.size, snapshot: manifest.snapshots?.size ?? 0, 'data test': manifest.tests.size, 'unit test': manifest.unitTests?.size ?? 0, seed: manifest.seeds.size, analysis: manifest.analyses?.size ?? 0, source: manifest.sources.size, macro: manifest.jinja.macroNames.length };
  const plural = (k: string) => (k === 'analysis' ? 'analyses' : `${k}s`);
  const found = Object.entries(counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${n === 1 ? k : plural(k)}`);
  line(found.length > 0 ? `Found ${found.join(', ')}` : 'Found no models, seeds, sources, data tests or macros', { name: 'FoundStats' });
}

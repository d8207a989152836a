import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderOf, importEdges } from '../../support/import-graph.js';

const SRC = fileURLToPath(new URL('../../../src', import.meta.url));
const edges = importEdges(SRC);

describe('import layering of src/', () => {
  it('reads the imports (the checker sees the files and both kinds of import)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.some((e) => e.type)).toBe(true);
    expect(edges.some((e) => !e.type)).toBe(true);
  });

  it('has no cycle between folders, counting type-only imports', () => {
    const folderEdges = edges.map((e) => ({ from: folderOf(e.from), to: folderOf(e.to) })).filter((e) => e.from !== e.to);
    const found = cycles(new Set(folderEdges.flatMap((e) => [e.from, e.to])), folderEdges);
    const explain = found.map((c) =>
      `${c.join(' <-> ')}:\n${edges.filter((e) => c.includes(folderOf(e.from)) && c.includes(folderOf(e.to)) && folderOf(e.from) !== folderOf(e.to))
        .map((e) => `  ${e.from} -> ${e.to}${e.type ? ' (type)' : ''}`).join('\n')}`);
    expect(explain).toEqual([]);
  });

  it('has no value-import cycle between files', () => {
    const valueEdges = edges.filter((e) => !e.type);
    expect(cycles(new Set(valueEdges.flatMap((e) => [e.from, e.to])), valueEdges)).toEqual([]);
  });
});

/**
 * The layers of src/, bottom up: a folder (or top-level file) imports only
 * from the layers before its own. docs/architecture.md states the same list.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'feed', 'clock.ts', 'invocation', 'test-hooks.ts'],
  ['project'],
  ['deps'],
  ['config'],
  ['engine'],
  ['graph'],
  ['compile'],
  ['materialize'],
  ['data-tests'],
  ['unit-tests'],
  ['parse'],
  ['plan'],
  ['state'],
  ['execute'],
  ['analysis'],
  ['docs'],
  ['api'],
  ['cli'],
  ['index.ts'],
];
const layerOf = (unit: string) => LAYERS.findIndex((l) => l.includes(unit));

describe('the layers of src/', () => {
  it('places every folder and top-level file in a layer', () => {
    const units = new Set(edges.flatMap((e) => [folderOf(e.from), folderOf(e.to)]));
    expect([...units].filter((u) => layerOf(u) < 0)).toEqual([]);
  });

  it('imports point backwards: every import between folders goes to an earlier layer (type imports included)', () => {
    const upward = edges
      .filter((e) => folderOf(e.from) !== folderOf(e.to) && layerOf(folderOf(e.to)) >= layerOf(folderOf(e.from)))
      .map((e) => `${e.from} -> ${e.to}${e.type ? ' (type)' : ''}`);
    expect(upward).toEqual([]);
  });

  it('docs/architecture.md states the same layers', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url)), 'utf8');
    expect(doc).toContain(`Layers, bottom up: ${LAYERS.map((l) => l.join(' ')).join(' < ')}`);
  });
});

describe('the engine seam (src/engine/)', () => {
  const sources = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split(sep).join('/'));
  const inSqlite = (file: string) => file.startsWith('engine/sqlite/');

  it('only src/engine/sqlite/ loads better-sqlite3 or kysely\'s SQLite dialect', () => {
    const driver = /(?:from\s*|require\s*\(\s*|import\s*\(\s*|\)\s*\(\s*)['"]better-sqlite3['"]/;
    const kyselySqlite = /\bSqlite(?:Adapter|QueryCompiler|Introspector|Dialect)\b/;
    const offenders = sources.filter((f) => !inSqlite(f) && (driver.test(readFileSync(join(SRC, f), 'utf8')) || kyselySqlite.test(readFileSync(join(SRC, f), 'utf8'))));
    expect(offenders).toEqual([]);
    // The check sees the real thing: the SQLite connection does load the driver.
    expect(sources.filter((f) => inSqlite(f) && driver.test(readFileSync(join(SRC, f), 'utf8')))).toEqual(['engine/sqlite/sqlite-connection.ts']);
  });

  it('engine/sqlite/ is imported only where the engine is chosen: engine/current-engine.ts (and its query builder dialect, engine/query-dialect.ts)', () => {
    const importers = [...new Set(edges.filter((e) => inSqlite(e.to) && !inSqlite(e.from)).map((e) => e.from))].sort();
    expect(importers).toEqual(['engine/current-engine.ts', 'engine/query-dialect.ts']);
  });

  it('engine/ imports nothing above it but errors/ and project/ (type imports included)', () => {
    const outward = edges.filter((e) => folderOf(e.from) === 'engine' && folderOf(e.to) !== 'engine' && !['errors', 'project'].includes(folderOf(e.to)));
    expect(outward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('finds a cycle through three nodes and a self loop, and nothing in a chain', () => {
    expect(cycles(['a', 'b', 'c', 'd'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }])).toEqual([['a', 'b', 'c']]);
    expect(cycles(['a'], [{ from: 'a', to: 'a' }])).toEqual([['a']]);
    expect(cycles(['a', 'b', 'c'], [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }])).toEqual([]);
  });

  it('tells a type-only import from a value import', () => {
    const fixture = fileURLToPath(new URL('../../fixtures/import-graph', import.meta.url));
    const found = importEdges(fixture).map((e) => `${e.from}->${e.to}:${e.type ? 'type' : 'value'}`).sort();
    expect(found).toEqual(['a/one.ts->b/two.ts:type', 'a/one.ts->b/two.ts:type', 'a/one.ts->b/two.ts:value', 'b/two.ts->a/one.ts:value']);
  });
});

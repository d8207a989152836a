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

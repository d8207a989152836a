import type { Graph } from '../graph/graph-node.js';
import { ancestors } from '../graph/walk-graph.js';
import type { Manifest } from './manifest.js';
import { varsReadIn } from './unused-vars.js';

interface MacroBody {
  readonly name: string;
  /** The name without an adapter prefix (`sqlite__days_before` -> `days_before`): what adapter.dispatch is called with. */
  readonly base: string;
  readonly body: string;
  readonly words: ReadonlySet<string>;
}

interface Readers {
  readonly macros: readonly MacroBody[];
  /** Words some node or macro body names: a macro named nowhere is called by dbt itself (generate_schema_name, materializations, overrides). */
  readonly named: ReadonlySet<string>;
  readonly nodes: Map<string, { readonly texts: readonly string[]; readonly words: ReadonlySet<string> }>;
}

const readers = new WeakMap<Manifest, Readers>();

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;
const BLOCK_START = /\{%-?\s*(?:macro|materialization|test)\s+([A-Za-z_][A-Za-z0-9_]*)[^%]*%\}/g;

function wordsOf(texts: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(WORD)) words.add(m[0]);
  return words;
}

/** Each macro (materialization, generic test) of the project's files, its body after its header. */
function macroBodies(manifest: Manifest): MacroBody[] {
  const out: MacroBody[] = [];
  for (const file of manifest.project.macros) {
    const starts = [...file.source.matchAll(BLOCK_START)];
    starts.forEach((m, i) => {
      const body = file.source.slice(m.index + m[0].length, i + 1 < starts.length ? starts[i + 1]!.index : file.source.length);
      const name = m[1]!;
      out.push({ name, base: name.replace(/^[A-Za-z0-9]+__/, ''), body, words: wordsOf([body]) });
    });
  }
  return out;
}

/** The template texts one node of the manifest renders: its SQL and its configs (a config may call var()). */
function textsOf(manifest: Manifest, id: string): string[] {
  const node = manifest.nodes.get(id);
  if (!node) return [];
  if (node.resourceType === 'model') return [node.file.rawSql, JSON.stringify(node.config)];
  return [JSON.stringify(node.config)];
}

function readersOf(manifest: Manifest): Readers {
  let known = readers.get(manifest);
  if (known) return known;
  const macros = macroBodies(manifest);
  const named = new Set<string>();
  for (const m of macros) for (const w of m.words) named.add(w);
  for (const id of manifest.nodes.keys()) for (const w of wordsOf(textsOf(manifest, id))) named.add(w);
  known = { macros, named, nodes: new Map() };
  readers.set(manifest, known);
  return known;
}

/**
 * Whether building `uniqueId` can read `var(name)`: the node, a node it is
 * built from, or a macro any of them can call names it in a literal var()
 * call. Read from the texts, not a render, so a var read in one branch only
 * counts. A macro counts as called when its name (or, for an adapter's
 * implementation, the name adapter.dispatch is given) appears as a word in
 * what is called, and always when no text names it at all (dbt calls it:
 * generate_schema_name, a materialization, an override). True when some call
 * computes its var name (`var(x)`): which vars are read cannot be known then,
 * and the answer must not claim a var is ignored.
 */
export function nodeReadsVar(manifest: Manifest, graph: Graph, uniqueId: string, name: string): boolean {
  const known = readersOf(manifest);
  const texts: string[] = [];
  const words = new Set<string>();
  for (const id of [uniqueId, ...ancestors(graph, uniqueId)]) {
    let own = known.nodes.get(id);
    if (own === undefined) {
      const t = textsOf(manifest, id);
      known.nodes.set(id, (own = { texts: t, words: wordsOf(t) }));
    }
    texts.push(...own.texts);
    for (const w of own.words) words.add(w);
  }
  const called = new Set<MacroBody>(known.macros.filter((m) => !known.named.has(m.name) && !known.named.has(m.base)));
  for (const m of called) for (const w of m.words) words.add(w);
  let grew = true;
  while (grew) {
    grew = false;
    for (const m of known.macros) {
      if (called.has(m) || !(words.has(m.name) || words.has(m.base))) continue;
      called.add(m);
      for (const w of m.words) words.add(w);
      grew = true;
    }
  }
  const read = varsReadIn([...texts, ...[...called].map((m) => m.body)]);
  return read === null || read.has(name);
}

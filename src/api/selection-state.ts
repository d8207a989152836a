import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Manifest } from '../compile/manifest.js';
import { ProjectError } from '../errors/project-error.js';
import type { Graph } from '../graph/graph-node.js';
import type { SelectionState } from '../graph/selection-state.js';
import { manifestJson } from '../state/manifest-json.js';
import { sameContract } from '../state/contract-json.js';

type NodeJson = Record<string, unknown>;

/** JSON with object keys sorted: two configs written in another order are the same config. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/** dbt's same_body: the file's checksum (a seed too large to hash is the same while its path is), else the raw code. */
function sameBody(current: NodeJson, previous: NodeJson): boolean {
  if (current.resource_type === 'source') {
    return stable([current.identifier, current.loaded_at_field, current.freshness]) === stable([previous.identifier, previous.loaded_at_field, previous.freshness]);
  }
  const a = current.checksum as { name?: unknown; checksum?: unknown } | undefined;
  const b = previous.checksum as { name?: unknown; checksum?: unknown } | undefined;
  if (a?.checksum !== undefined && b?.checksum !== undefined) return a.name === b.name && a.checksum === b.checksum;
  return current.raw_code === previous.raw_code;
}

/** dbt's same_database_representation: where it is built (a source: where it is read). */
function sameRelation(current: NodeJson, previous: NodeJson): boolean {
  const name = (n: NodeJson) => (n.resource_type === 'source' ? n.identifier : n.alias);
  return current.database === previous.database && current.schema === previous.schema && name(current) === name(previous);
}

/** A pattern matching any of these names as a whole word. */
function namePattern(names: ReadonlySet<string>): RegExp {
  return new RegExp(`\\b(?:${[...names].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`);
}

/**
 * dbt's state:modified.macros: a node calls a macro whose text changed since the state (or is new).
 * mini-dbt does not record which macros a render calls, so a call is a mention of the macro's name in
 * the node's code (as every direct call is), followed through the macros that mention it; a name in
 * a comment counts too, so it may flag a node dbt would not, rather than miss one.
 */
function changedMacroCalls(current: Record<string, NodeJson>, previous: Record<string, NodeJson>): (text: unknown) => boolean {
  const changed = new Set<string>();
  for (const [id, macro] of Object.entries(current)) if (previous[id]?.macro_sql !== macro.macro_sql) changed.add(String(macro.name));
  // Macros that call a changed macro changed in effect too: to a fixpoint.
  for (let grew = changed.size > 0; grew;) {
    grew = false;
    const pattern = namePattern(changed);
    for (const macro of Object.values(current)) {
      const name = String(macro.name);
      if (!changed.has(name) && typeof macro.macro_sql === 'string' && pattern.test(macro.macro_sql)) {
        changed.add(name);
        grew = true;
      }
    }
  }
  const pattern = changed.size === 0 ? undefined : namePattern(changed);
  return (text) => pattern !== undefined && typeof text === 'string' && pattern.test(text);
}

function readJson(path: string, what: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ProjectError(`--state: could not read ${what} ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * dbt's --state: the project's nodes against the manifest.json (and, for
 * `result:`, the run_results.json) of an earlier invocation's target folder.
 * A node missing there is new; an old one is modified when its body (file
 * checksum, as dbt writes it), its config or its relation (database, schema,
 * alias) differs. Read on first use: a selection without state: selectors
 * reads nothing. Not compared (mini-dbt records neither): which macros a node
 * calls, persisted descriptions.
 */
export function selectionState(dir: string, manifest: Manifest, graph: Graph): SelectionState {
  const folder = resolve(dir);
  let compared: { current: Record<string, NodeJson>; previous: Record<string, NodeJson>; callsChanged: (text: unknown) => boolean } | undefined;
  let results: Map<string, string> | undefined;
  const flagsCache = new Map<string, ReadonlySet<string>>();
  const comparison = () => {
    if (compared) return compared;
    const path = join(folder, 'manifest.json');
    if (!existsSync(path)) throw new ProjectError(`--state ${dir}: no manifest.json there to compare with`, { hint: 'point --state at the target folder of the run to compare with (e.g. a copy of target/ from production)' });
    const previous = readJson(path, 'the state manifest');
    const now = manifestJson(manifest, graph, 'state');
    compared = {
      current: { ...(now.nodes as Record<string, NodeJson>), ...(now.sources as Record<string, NodeJson>) },
      previous: { ...(previous.nodes as Record<string, NodeJson> | undefined ?? {}), ...(previous.sources as Record<string, NodeJson> | undefined ?? {}) },
      callsChanged: changedMacroCalls(now.macros as Record<string, NodeJson>, (previous.macros ?? {}) as Record<string, NodeJson>),
    };
    return compared;
  };
  return {
    flags(uniqueId) {
      const cached = flagsCache.get(uniqueId);
      if (cached) return cached;
      const { current, previous } = comparison();
      const now = current[uniqueId];
      const before = previous[uniqueId];
      const flags = new Set<string>();
      if (now !== undefined && before === undefined) flags.add('new');
      if (now !== undefined && before !== undefined) {
        flags.add('old');
        if (!sameBody(now, before)) flags.add('modified.body');
        if (stable(now.config ?? {}) !== stable(before.config ?? {})) flags.add('modified.configs');
        if (!sameRelation(now, before)) flags.add('modified.relation');
        if (compared!.callsChanged(now.raw_code)) flags.add('modified.macros');
        if (!sameContract(now, before)) flags.add('modified.contract');
        flags.add(flags.size > 1 ? 'modified' : 'unmodified');
      }
      // dbt's state:modified takes new nodes too.
      if (flags.has('new')) flags.add('modified');
      flagsCache.set(uniqueId, flags);
      return flags;
    },
    result(uniqueId) {
      if (!results) {
        const path = join(folder, 'run_results.json');
        if (!existsSync(path)) throw new ProjectError(`--state ${dir}: no run_results.json there for result: selectors`);
        const file = readJson(path, 'the state run results') as { results?: { unique_id?: unknown; status?: unknown }[] };
        results = new Map((file.results ?? []).map((r) => [String(r.unique_id), String(r.status)]));
      }
      return results.get(uniqueId);
    },
  };
}

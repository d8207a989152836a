import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import type { Graph } from './graph-node.js';
import { selectNodes, type SelectionOptions } from './select-nodes.js';

/** A selectors.yml entry as the graph needs it (project/selectors-file.ts reads the file). */
export interface SelectorEntry {
  readonly name: string;
  readonly definition: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The nodes a named selector of selectors.yml selects, as dbt evaluates its
 * YAML definitions: a selection string ("tag:nightly+"); a method/value
 * mapping with parents, children, their depths and childrens_parents;
 * `union:` and `intersection:` lists, whose `exclude:` items are subtracted;
 * `method: selector` naming another selector. `options` carries the state
 * for state: and result: methods.
 */
export function namedSelection(graph: Graph, selectors: readonly SelectorEntry[], name: string, options: Pick<SelectionOptions, 'state'> = {}): Set<string> {
  const byName = new Map(selectors.map((s) => [s.name, s]));
  const evaluate = (definition: unknown, path: readonly string[]): Set<string> => {
    const fail = (message: string) => new ProjectError(`selector '${path[0]}': ${message}`, { location: { file: 'selectors.yml' } });
    if (typeof definition === 'string') return selectNodes(graph, { select: [definition], ...options });
    if (!isRecord(definition)) throw fail(`a definition is a selection string, a method and value, a union or an intersection, got ${JSON.stringify(definition)}`);
    if (Array.isArray(definition.union) || Array.isArray(definition.intersection)) {
      const items = (definition.union ?? definition.intersection) as unknown[];
      // An item that is only `exclude:` subtracts; one with a method (and its own exclude) is a selection.
      const excludeOnly = (i: unknown): i is Record<string, unknown> => isRecord(i) && 'exclude' in i && !('method' in i) && !('union' in i) && !('intersection' in i);
      const kept = items.filter((i) => !excludeOnly(i));
      const excluded = items.filter(excludeOnly).flatMap((i) => (Array.isArray(i.exclude) ? i.exclude : [i.exclude]));
      const sets = kept.map((i) => evaluate(i, path));
      let result: Set<string>;
      if (definition.union) result = new Set(sets.flatMap((s) => [...s]));
      else result = sets.length === 0 ? new Set() : new Set([...sets[0]!].filter((id) => sets.every((s) => s.has(id))));
      for (const e of excluded) for (const id of evaluate(e, path)) result.delete(id);
      return result;
    }
    const method = definition.method;
    const value = definition.value;
    if (typeof method !== 'string' || (typeof value !== 'string' && typeof value !== 'number')) {
      throw fail(`a mapping needs 'method' and 'value' (or 'union' / 'intersection'), got keys ${Object.keys(definition).join(', ')}`);
    }
    if (method === 'selector') {
      const other = byName.get(String(value));
      if (!other) throw fail(`it refers to selector '${value}', which selectors.yml does not define.${didYouMeanSuffix(String(value), [...byName.keys()])}`);
      if (path.includes(other.name)) throw fail(`selectors refer to each other in a cycle: ${[...path, other.name].join(' -> ')}`);
      return evaluate(other.definition, [...path, other.name]);
    }
    const depth = (d: unknown) => (typeof d === 'number' && Number.isInteger(d) && d > 0 ? String(d) : '');
    const criterion = `${definition.childrens_parents === true ? '@' : ''}${definition.parents === true ? `${depth(definition.parents_depth)}+` : ''}${method === 'fqn' ? '' : `${method}:`}${value}${definition.children === true ? `+${depth(definition.children_depth)}` : ''}`;
    const selected = selectNodes(graph, { select: [criterion], ...options });
    if (definition.exclude !== undefined) for (const e of Array.isArray(definition.exclude) ? definition.exclude : [definition.exclude]) for (const id of evaluate(e, path)) selected.delete(id);
    return selected;
  };
  const entry = byName.get(name);
  if (!entry) throw new ProjectError(`Could not find selector named ${name}, expected one of ${[...byName.keys()].map((n) => `'${n}'`).join(', ') || '(selectors.yml defines none)'}.${didYouMeanSuffix(name, [...byName.keys()])}`);
  return evaluate(entry.definition, [entry.name]);
}

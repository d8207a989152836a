import { didYouMean } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import type { Graph, GraphNode } from './graph-node.js';
import type { SelectorCriterion } from './parse-selector.js';

const LIST_LIMIT = 20;

/**
 * `The selection criterion '<raw>' does not match any node.`, with a hint:
 * the closest name for names and paths, the known values for tags, sources,
 * packages and config values.
 */
export function noMatchError(graph: Graph, criterion: SelectorCriterion): ProjectError {
  return new ProjectError(`The selection criterion '${criterion.raw}' does not match any node.`, {
    hint: hintFor(graph, criterion),
  });
}

function hintFor(graph: Graph, criterion: SelectorCriterion): string | undefined {
  const nodes = [...graph.nodes.values()];
  const { value } = criterion;
  switch (criterion.method) {
    case 'fqn':
      return fqnHint(nodes, criterion);
    case 'tag':
      return known(criterion, 'tags', nodes.flatMap((node) => node.tags));
    case 'path': {
      const paths = nodes.flatMap((node) => directoriesAndFile(node.path));
      return suggest(criterion, paths) ?? 'paths are relative to the project root, e.g. models/marts';
    }
    case 'file':
      return suggest(criterion, nodes.map((node) => node.path.slice(node.path.lastIndexOf('/') + 1)));
    case 'resource_type':
      return `the project has no ${value} nodes`;
    case 'source':
      return known(criterion, 'sources', nodes.filter((node) => node.resourceType === 'source').map((node) => node.name));
    case 'package':
      return known(criterion, 'packages', nodes.map((node) => node.packageName));
    case 'config': {
      const values = nodes.flatMap((node) => configValues(node, criterion.methodArgs));
      return known(criterion, `values of config.${criterion.methodArgs.join('.')}`, values);
    }
  }
}

function fqnHint(nodes: readonly GraphNode[], criterion: SelectorCriterion): string | undefined {
  const named = nodes.filter((node) => node.resourceType !== 'source');
  const candidates = new Set(named.map((node) => node.name));
  for (const node of named) {
    for (let i = 1; i < node.fqn.length; i++) {
      candidates.add(node.fqn.slice(0, i).join('.'));
      candidates.add(node.fqn.slice(1, i).join('.'));
    }
  }
  candidates.delete('');
  const hint = suggest(criterion, [...candidates]);
  if (hint || !criterion.methodInferred) return hint;
  const source = didYouMean(criterion.value, nodes.filter((n) => n.resourceType === 'source').map((n) => n.name));
  return source ? `did you mean '${criterion.prefix}source:${source}${criterion.suffix}'?` : undefined;
}

function suggest(criterion: SelectorCriterion, candidates: readonly string[]): string | undefined {
  const best = didYouMean(criterion.value, [...new Set(candidates)]);
  return best ? `did you mean '${criterion.prefix}${best}${criterion.suffix}'?` : undefined;
}

function known(criterion: SelectorCriterion, what: string, values: readonly string[]): string {
  const unique = [...new Set(values)].sort();
  if (unique.length === 0) return `no node has any ${what.replace(/^values of /, '')}`;
  const shown = unique.slice(0, LIST_LIMIT).join(', ');
  const more = unique.length > LIST_LIMIT ? `, ... (${unique.length - LIST_LIMIT} more)` : '';
  const best = didYouMean(criterion.value, unique);
  return `${best ? `did you mean '${criterion.prefix}${best}${criterion.suffix}'? ` : ''}known ${what}: ${shown}${more}`;
}

function directoriesAndFile(path: string): string[] {
  const result = [path];
  for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) result.push(path.slice(0, slash));
  return result;
}

function configValues(node: GraphNode, keys: readonly string[]): string[] {
  let current: unknown = node.config;
  for (const key of keys) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return [];
    current = (current as Record<string, unknown>)[key];
  }
  const items = Array.isArray(current) ? current : [current];
  return items.filter((item) => item !== undefined && item !== null && typeof item !== 'object').map(String);
}

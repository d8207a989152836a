import { versionStanding } from '../project/model-version.js';
import { globToRegExp, hasGlobChars } from './glob-to-regexp.js';
import type { Graph, GraphNode } from './graph-node.js';
import type { SelectorCriterion } from './parse-selector.js';
import type { SelectionState } from './selection-state.js';
import { ProjectError } from '../errors/project-error.js';

type NodePredicate = (node: GraphNode) => boolean;

/** Unique ids of the nodes the criterion's method and value match, before graph operators. */
export function matchMethod(graph: Graph, criterion: SelectorCriterion, state?: SelectionState): Set<string> {
  const matches = criterion.method === 'state' || criterion.method === 'result' ? statePredicate(criterion, state) : predicateFor(criterion);
  const result = new Set<string>();
  for (const [id, node] of graph.nodes) if (matches(node)) result.add(id);
  return result;
}

function predicateFor(criterion: SelectorCriterion): NodePredicate {
  const { value } = criterion;
  switch (criterion.method) {
    case 'fqn':
      return fqnPredicate(value);
    case 'tag': {
      const pattern = globPredicate(value);
      return (node) => node.tags.some(pattern);
    }
    case 'path':
      return pathPredicate(value);
    case 'file': {
      const pattern = globPredicate(value);
      return (node) => {
        const fileName = node.path.slice(node.path.lastIndexOf('/') + 1);
        const dot = fileName.lastIndexOf('.');
        return pattern(fileName) || (dot > 0 && pattern(fileName.slice(0, dot)));
      };
    }
    case 'resource_type':
      return (node) => node.resourceType === value;
    case 'source':
      return sourcePredicate(value);
    case 'config':
      return configPredicate(criterion.methodArgs, value);
    case 'test_type':
      // dbt: generic (or schema), singular, unit, and data = generic or singular.
      return (node) => node.testType !== undefined && (value === 'data' ? node.testType !== 'unit' : node.testType === (value === 'schema' ? 'generic' : value));
    case 'test_name': {
      // dbt: a generic test's test (unique, not_null, ...) or a unit test's name; singular tests have none.
      const pattern = globPredicate(value);
      return (node) => node.testName !== undefined && pattern(node.testName);
    }
    case 'package': {
      const pattern = globPredicate(value);
      return (node) => pattern(node.packageName);
    }
    case 'exposure': {
      // exposure:name, or exposure:<package>.name as ls prints it.
      const name = globPredicate(value.includes('.') ? value.slice(value.lastIndexOf('.') + 1) : value);
      const pkg = value.includes('.') ? globPredicate(value.slice(0, value.lastIndexOf('.'))) : () => true;
      return (node) => node.resourceType === 'exposure' && name(node.name) && pkg(node.packageName);
    }
    case 'version':
      return versionPredicate(value);
    case 'group': {
      // dbt's group: method: a node whose group config matches (a glob).
      const pattern = globPredicate(value);
      return (node) => typeof node.config?.group === 'string' && pattern(node.config.group);
    }
    case 'access':
      // dbt's access: method: models only, protected when unset.
      return (node) => node.resourceType === 'model' && (node.config?.access ?? 'protected') === value;
    case 'state':
    case 'result':
      throw new Error(`the ${criterion.method}: method needs the state (statePredicate)`);
  }
}

/** state:<value> and result:<status>, against the --state folder (dbt's error when there is none). */
function statePredicate(criterion: SelectorCriterion, state: SelectionState | undefined): NodePredicate {
  if (state === undefined) {
    throw new ProjectError(`Got a state selector method ('${criterion.raw}'), but no comparison manifest`, {
      hint: 'give --state <folder> (or DBT_STATE): the target/ folder of the run to compare with, holding its manifest.json (and run_results.json for result:)',
    });
  }
  if (criterion.method === 'result') return (node) => state.result(node.uniqueId) === criterion.value;
  return (node) => state.flags(node.uniqueId).has(criterion.value);
}

/**
 * dbt's `version:` method: latest (a version that is its model's latest),
 * prerelease (above it), old (below it), none (a model without versions).
 */
function versionPredicate(value: string): NodePredicate {
  if (value === 'none') return (node) => node.resourceType === 'model' && node.version === undefined;
  return (node) => node.version !== undefined && node.latestVersion !== undefined && versionStanding({ v: node.version, latest: node.latestVersion }) === value;
}

/** Exact comparison, or shell-style wildcards when the pattern has any. */
function globPredicate(pattern: string, paths = false): (text: string) => boolean {
  if (!hasGlobChars(pattern)) return (text) => text === pattern;
  const regexp = globToRegExp(pattern, { paths });
  return (text) => regexp.test(text);
}

/**
 * As dbt: the node name, or a dotted prefix of the fqn with or without the
 * project name (`brightcart.marts`, `marts`, `staging.*`); from the first
 * part with a wildcard on, the rest of the fqn is matched as one glob. As an
 * extension, a wildcard value without dots also matches names (`stg_*`).
 * Sources are selected with `source:`, not by fqn.
 */
function fqnPredicate(value: string): NodePredicate {
  const parts = value.split('.');
  const slurpFrom = parts.findIndex((part) => hasGlobChars(part));
  const slurp = slurpFrom < 0 ? undefined : globToRegExp(parts.slice(slurpFrom).join('.'));
  const matchesFqn = (flat: readonly string[]): boolean => {
    if (flat.length < parts.length) return false;
    const exactParts = slurpFrom < 0 ? parts.length : slurpFrom;
    for (let i = 0; i < exactParts; i++) if (flat[i] !== parts[i]) return false;
    return slurp === undefined || slurp.test(flat.slice(slurpFrom).join('.'));
  };
  // dbt's rule for a versioned model: its model's name selects every version; `name.v1` or `name_v1` one of them.
  const versioned = (node: GraphNode): boolean =>
    node.version !== undefined && node.fqn.length >= 2 &&
    (node.fqn[node.fqn.length - 2] === value || node.fqn.slice(-2).join('_') === parts.slice(-2).join('_'));
  if (parts.length === 1 && slurp === undefined) {
    // a plain name: the leaf, or the first part of the fqn with or without the project
    return (node) =>
      node.resourceType !== 'source' &&
      (versioned(node) ||
        (node.version === undefined && (node.name === value || node.fqn[node.fqn.length - 1] === value)) ||
        firstPart(node.fqn[0]) === value ||
        firstPart(node.fqn[1]) === value);
  }
  const name = globPredicate(value);
  return (node) => {
    if (node.resourceType === 'source') return false;
    if (versioned(node)) return true;
    if (node.name === value || (parts.length === 1 && slurp && name(node.name))) return true;
    if (node.fqn[node.fqn.length - 1] === value) return true;
    const flat = node.fqn.flatMap((segment) => segment.split('.'));
    return matchesFqn(flat) || matchesFqn(node.fqn.slice(1).flatMap((segment) => segment.split('.')));
  };
}

function firstPart(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  const dot = segment.indexOf('.');
  return dot < 0 ? segment : segment.slice(0, dot);
}

/**
 * A path relative to the project root: the node's file, or any directory
 * above it (`path:models/marts` matches everything under models/marts).
 * Wildcards stay within one segment; `**` crosses segments.
 */
function pathPredicate(value: string): NodePredicate {
  const normalized = value.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  if (!hasGlobChars(normalized)) {
    if (normalized === '.' || normalized === '/') return () => true;
    return (node) => node.path === normalized || node.path.startsWith(`${normalized}/`);
  }
  const pattern = globToRegExp(normalized, { paths: true });
  return (node) => {
    if (pattern.test(node.path)) return true;
    for (let slash = node.path.indexOf('/'); slash > 0; slash = node.path.indexOf('/', slash + 1)) {
      if (pattern.test(node.path.slice(0, slash))) return true;
    }
    return false;
  };
}

/** `source:<source>`, `source:<source>.<table>` or `source:<package>.<source>.<table>`; wildcards allowed. */
function sourcePredicate(value: string): NodePredicate {
  const parts = value.split('.');
  const [packageName, sourceName, tableName] =
    parts.length === 3 ? parts : parts.length === 2 ? ['*', ...parts] : ['*', parts[0]!, '*'];
  const matchPackage = globPredicate(packageName!);
  const matchSource = globPredicate(sourceName!);
  const matchTable = globPredicate(tableName!);
  return (node) => {
    if (node.resourceType !== 'source') return false;
    const dot = node.name.indexOf('.');
    const source = dot < 0 ? node.name : node.name.slice(0, dot);
    const table = dot < 0 ? '' : node.name.slice(dot + 1);
    return matchPackage(node.packageName) && matchSource(source) && matchTable(table);
  };
}

/** `config.<key>[.<key>...]:<value>`: string comparison, membership for lists, true/false in any case. */
function configPredicate(keys: readonly string[], value: string): NodePredicate {
  return (node) => {
    let current: unknown = node.config;
    for (const key of keys) {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return false;
      current = (current as Record<string, unknown>)[key];
    }
    if (Array.isArray(current)) return current.some((item) => scalarEquals(item, value));
    return scalarEquals(current, value);
  };
}

function scalarEquals(actual: unknown, expected: string): boolean {
  if (actual === undefined || actual === null || typeof actual === 'object') return false;
  const text = String(actual);
  if (/^(true|false)$/i.test(text) && /^(true|false)$/i.test(expected)) return text.toLowerCase() === expected.toLowerCase();
  return text === expected;
}

import { didYouMean } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { RESOURCE_TYPES } from './graph-node.js';

export type SelectorMethod = 'fqn' | 'tag' | 'path' | 'file' | 'resource_type' | 'source' | 'config' | 'package' | 'test_type' | 'test_name' | 'state' | 'result' | 'exposure' | 'version' | 'group' | 'access';

const METHODS: readonly SelectorMethod[] = ['access', 'config', 'exposure', 'file', 'fqn', 'group', 'package', 'path', 'resource_type', 'result', 'source', 'state', 'tag', 'test_name', 'test_type', 'version'];

/** dbt's version: values (model versions: the latest one, those above it, those below it, unversioned models). */
export const VERSION_VALUES: readonly string[] = ['latest', 'prerelease', 'old', 'none'];

/** dbt's access: values (a model's access level; protected when unset). */
export const ACCESS_VALUES: readonly string[] = ['private', 'protected', 'public'];

/** dbt's state: values mini-dbt compares (src/api/selection-state.ts). */
export const STATE_VALUES: readonly string[] = ['new', 'old', 'modified', 'modified.body', 'modified.configs', 'modified.relation', 'modified.macros', 'modified.contract', 'unmodified'];

/** state: values of dbt's that need what mini-dbt does not record (persisted docs). */
const STATE_UNSUPPORTED: readonly string[] = ['modified.persisted_descriptions'];

/** dbt's test_type: values (schema is the old name of generic). */
export const TEST_TYPES: readonly string[] = ['generic', 'singular', 'unit', 'data', 'schema'];

/** The valid methods, as printed in error hints. */
export const SELECTOR_METHOD_NAMES: readonly string[] = METHODS.map((m) => (m === 'config' ? 'config.<key>' : m));

/** One comma-free selector: `[@][N+][method[.arg]:]value[+[N]]`. */
export interface SelectorCriterion {
  /** The selector as written, e.g. `2+tag:nightly`. */
  readonly raw: string;
  readonly method: SelectorMethod;
  /** True when no method was written and it was inferred from the value. */
  readonly methodInferred: boolean;
  /** For `config.<key>`: the key path, e.g. ['materialized']. */
  readonly methodArgs: readonly string[];
  readonly value: string;
  /** `raw` before and after the value, to rebuild a suggestion. */
  readonly prefix: string;
  readonly suffix: string;
  /** `+x` / `N+x`; depth undefined means all ancestors. */
  readonly parents: boolean;
  readonly parentsDepth?: number;
  /** `x+` / `x+N`; depth undefined means all descendants. */
  readonly children: boolean;
  readonly childrenDepth?: number;
  /** `@x`: x, its descendants and all their ancestors. */
  readonly childrensParents: boolean;
}

const GRAMMAR = "a selector is [@][N+][method:]value[+[N]], e.g. 'daily_revenue', '+daily_revenue', 'tag:nightly+', '2+path:models/marts'";

/**
 * `--select`/`--exclude` values: each is split on whitespace (union), each
 * token on commas (intersection). Returns one array of criteria per token.
 */
export function parseSelection(values: readonly string[], isNodeName: (name: string) => boolean = () => false): SelectorCriterion[][] {
  // A value that is exactly a node name with spaces (after graph operators) stays whole.
  const whole = (value: string) => /\s/.test(value) && isNodeName(value.trim().replace(/^@|^\d*\+|\+\d*$/g, ''));
  const tokens = values.flatMap((value) => (whole(value) ? [value.trim()] : value.split(/\s+/))).filter((token) => token.length > 0);
  return tokens.map((token) =>
    token.split(',').map((part) => {
      if (part.length === 0) throw malformed(token, "an empty selector between commas; 'a,b' selects nodes matching both a and b");
      return parseSelector(part);
    }),
  );
}

/** Parses one selector without commas or spaces. Throws ProjectError `malformed selector '...'`. */
export function parseSelector(raw: string): SelectorCriterion {
  let rest = raw;
  const childrensParents = rest.startsWith('@');
  if (childrensParents) rest = rest.slice(1);

  const parentsMatch = /^(\d*)\+/.exec(rest);
  if (parentsMatch) rest = rest.slice(parentsMatch[0].length);
  const prefixLength = raw.length - rest.length;

  const childrenMatch = /\+(\d*)$/.exec(rest);
  if (childrenMatch) rest = rest.slice(0, rest.length - childrenMatch[0].length);
  if (childrensParents && childrenMatch) {
    throw malformed(raw, "the '@' prefix and '+' suffix are incompatible: '@x' already selects x, its descendants and all their ancestors");
  }

  let methodText: string | undefined;
  let value = rest;
  const methodMatch = /^([A-Za-z_][\w.]*):/.exec(rest);
  if (methodMatch) {
    methodText = methodMatch[1]!;
    value = rest.slice(methodMatch[0].length);
  }
  const prefix = raw.slice(0, prefixLength + (methodMatch ? methodMatch[0].length : 0));
  const suffix = childrenMatch ? childrenMatch[0] : '';

  if (value.length === 0) throw malformed(raw, GRAMMAR);
  if (/[+@]/.test(value)) {
    throw malformed(raw, "'+' may only come first (ancestors, optionally after a depth: '2+x') or last (descendants, optionally followed by a depth: 'x+1'); '@' only first");
  }

  const [method, methodArgs] = methodText === undefined ? [inferMethod(value), []] : resolveMethod(raw, methodText);
  checkValue(raw, method, value);

  return {
    raw,
    method,
    methodInferred: methodText === undefined,
    methodArgs,
    value,
    prefix,
    suffix,
    parents: parentsMatch !== null,
    parentsDepth: depthOf(parentsMatch?.[1]),
    children: childrenMatch !== null,
    childrenDepth: depthOf(childrenMatch?.[1]),
    childrensParents,
  };
}

function inferMethod(value: string): SelectorMethod {
  if (value.includes('/') || value.includes('\\')) return 'path';
  if (/\.(sql|csv|py)$/i.test(value)) return 'file';
  return 'fqn';
}

function resolveMethod(raw: string, text: string): [SelectorMethod, string[]] {
  const [name, ...args] = text.split('.');
  if (name === 'config') {
    if (args.length === 0 || args.some((arg) => arg.length === 0)) {
      throw malformed(raw, 'write config.<key>:<value>, e.g. config.materialized:incremental');
    }
    return ['config', args];
  }
  const method = METHODS.find((m) => m === name);
  if (!method || args.length > 0) {
    const best = didYouMean(text, SELECTOR_METHOD_NAMES);
    throw new ProjectError(`unknown selector method '${text}' in '${raw}'`, {
      hint: `${best ? `did you mean '${best}'? ` : ''}valid methods: ${SELECTOR_METHOD_NAMES.join(', ')}`,
    });
  }
  return [method, []];
}

function checkValue(raw: string, method: SelectorMethod, value: string): void {
  // Names may start with a digit (a model called 2023_orders), as in dbt: a
  // depth only counts when a '+' follows it.
  if (method === 'fqn' && !/^[A-Za-z0-9_*?[]/.test(value)) throw malformed(raw, GRAMMAR);
  if (method === 'source' && value.split('.').length > 3) {
    throw malformed(raw, 'write source:<source>, source:<source>.<table> or source:<package>.<source>.<table>');
  }
  if (method === 'test_type' && !TEST_TYPES.includes(value)) {
    throw new ProjectError(`Invalid test type selector ${value}: expected "generic", "singular", "unit", or "data"`, { hint: `in '${raw}'.${didYouMean(value, TEST_TYPES) ? ` Did you mean '${didYouMean(value, TEST_TYPES)}'?` : ''}` });
  }
  if (method === 'state' && !STATE_VALUES.includes(value)) {
    if (STATE_UNSUPPORTED.includes(value)) {
      throw new ProjectError(`'${raw}': mini-dbt does not compare ${value.slice('modified.'.length).replace('_', ' ')} between states`, { hint: `supported: ${STATE_VALUES.map((v) => `state:${v}`).join(', ')}` });
    }
    const best = didYouMean(value, STATE_VALUES);
    throw new ProjectError(`unknown state selector '${value}' in '${raw}'`, { hint: `${best ? `did you mean '${best}'? ` : ''}valid: ${STATE_VALUES.join(', ')}` });
  }
  if (method === 'version' && !VERSION_VALUES.includes(value)) {
    throw new ProjectError(`Invalid version type selector ${value}: expected one of: "latest", "prerelease", "old", or "none"`, { hint: `in '${raw}'.${didYouMean(value, VERSION_VALUES) ? ` Did you mean '${didYouMean(value, VERSION_VALUES)}'?` : ''}` });
  }
  if (method === 'access' && !ACCESS_VALUES.includes(value)) {
    throw new ProjectError(`Invalid access selector ${value}: expected one of: "private", "protected", or "public"`, { hint: `in '${raw}'.${didYouMean(value, ACCESS_VALUES) ? ` Did you mean '${didYouMean(value, ACCESS_VALUES)}'?` : ''}` });
  }
  if (method === 'resource_type' && !RESOURCE_TYPES.includes(value as never)) {
    const best = didYouMean(value, RESOURCE_TYPES);
    throw new ProjectError(`unknown resource type '${value}' in '${raw}'`, {
      hint: `${best ? `did you mean '${best}'? ` : ''}valid resource types: ${RESOURCE_TYPES.join(', ')}`,
    });
  }
}

function depthOf(digits: string | undefined): number | undefined {
  return digits ? Number.parseInt(digits, 10) : undefined;
}

function malformed(raw: string, hint: string): ProjectError {
  return new ProjectError(`malformed selector '${raw}'`, { hint });
}

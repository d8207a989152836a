import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { ResourceType } from '../graph/graph-node.js';

/** dbt's --resource-type values: mini-dbt's node types, dbt's that mini-dbt has no nodes of, and all/default. */
const MINI_DBT_TYPES: readonly ResourceType[] = ['model', 'seed', 'snapshot', 'source', 'analysis', 'test', 'unit_test', 'exposure'];
const OTHER_DBT_TYPES = ['metric', 'saved_query', 'semantic_model', 'function'];
const VALUES = [...MINI_DBT_TYPES, ...OTHER_DBT_TYPES, 'all', 'default'];

function parse(flag: string, values: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const raw of values.flatMap((v) => v.split(/[\s,]+/)).filter((v) => v !== '')) {
    if (!VALUES.includes(raw)) throw new ProjectError(`${flag}: unknown resource type '${raw}'.${didYouMeanSuffix(raw, VALUES)}`, { hint: `valid: ${VALUES.join(', ')}` });
    if (raw === 'all' || raw === 'default') for (const t of MINI_DBT_TYPES) out.add(t);
    else out.add(raw);
  }
  return out;
}

/**
 * dbt's --resource-type and --exclude-resource-type (build, test, ls): the
 * node types kept, or undefined when neither flag is given. Types dbt has and
 * mini-dbt does not (metric, ...) are accepted and match nothing.
 */
export function resourceTypesOption(include: readonly string[] | undefined, exclude: readonly string[] | undefined): ResourceType[] | undefined {
  if (!include?.length && !exclude?.length) return undefined;
  const kept = include?.length ? parse('--resource-type', include) : new Set<string>(MINI_DBT_TYPES);
  const dropped = exclude?.length ? parse('--exclude-resource-type', exclude) : new Set<string>();
  return MINI_DBT_TYPES.filter((t) => kept.has(t) && !dropped.has(t));
}

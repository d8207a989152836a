import { listNodesVouched } from '../api/list-nodes.js';
import { keepLsAnswer } from '../parse/ls-answer-cache.js';
import { outputWrites } from './output-watch.js';
import { lsJsonLine, outputKeys } from './ls-json.js';
import type { ResourceType } from '../graph/graph-node.js';
import { ProjectError } from '../errors/project-error.js';
import { resourceTypesOption } from './resource-type-option.js';
import { indirectSelectionOption, sessionOptions, type CommonFlags } from './common-options.js';

export interface LsFlags extends CommonFlags {
  select?: string[];
  /** -m/--models: dbt's ls selects with them and keeps only models. */
  models?: string[];
  exclude?: string[];
  resourceType?: string[];
  excludeResourceType?: string[];
  output?: string;
  /** --output-keys: the JSON keys to print (dbt's; default its ALLOWED_KEYS). */
  outputKeys?: string[];
  indirectSelection?: string;
}

/** ls: selected nodes, as names, paths or JSON lines (dbt's --output); the output is kept for the same ls on the unchanged project (parse/ls-answer-cache.ts). */
export function lsCommand(flags: LsFlags): number {
  if (flags.models && flags.resourceType) throw new ProjectError('--models and --resource-type cannot be combined on ls: --models keeps only models (as in dbt)');
  const types: ResourceType[] | undefined = flags.models ? ['model'] : resourceTypesOption(flags.resourceType, flags.excludeResourceType);
  const output = flags.output ?? 'selector';
  if (!['selector', 'name', 'path', 'json'].includes(output)) throw new ProjectError(`unknown --output '${output}'; valid: selector, name, path, json`);
  if (flags.outputKeys !== undefined && output !== 'json') throw new ProjectError('--output-keys applies to --output json only');
  const keys = outputKeys(flags.outputKeys);
  const { nodes, vouched } = listNodesVouched({ ...sessionOptions(flags), select: flags.models ?? flags.select, exclude: flags.exclude, resourceTypes: types, indirectSelection: indirectSelectionOption(flags.indirectSelection) });
  const lines = nodes.map((n) => {
    if (output === 'json') return lsJsonLine(n, keys);
    if (output === 'path') return n.path;
    if (output === 'name') return n.name;
    // dbt's selector form: the fqn with its folders (brightcart.marts.daily_revenue); sources prefixed; unit tests as unit_test:<project>.<name>
    // (a versioned model's: <name>_v<v>, dbt's versioned_name, the last part of its fqn).
    if (n.resourceType === 'unit_test') return `unit_test:${n.fqn[0]}.${n.fqn[n.fqn.length - 1] ?? n.name}`;
    if (n.resourceType === 'exposure') return `exposure:${n.packageName}.${n.name}`;
    return `${n.resourceType === 'source' ? 'source:' : ''}${n.fqn.join('.')}`;
  });
  const text = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  // Kept for the bin to print again while nothing changes, if the listing is all this command printed.
  const quiet = outputWrites() === 0;
  process.stdout.write(text);
  if (quiet && vouched) keepLsAnswer(vouched, process.argv.slice(2), text);
  return 0;
}

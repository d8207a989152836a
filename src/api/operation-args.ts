import { createRequire } from 'node:module';
import { ProjectError } from '../errors/project-error.js';
import { aliasLimitMessage, isAliasLimitError, MAX_YAML_ALIAS_COUNT } from '../project/yaml-alias-limit.js';

const loadYaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml') as typeof import('yaml');

/** run-operation's --args: a YAML (or JSON) mapping, the macro's keyword arguments, as in dbt. */
export function parseOperationArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = loadYaml().parse(text, { maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (err) {
    if (isAliasLimitError(err)) throw new ProjectError(`--args: ${aliasLimitMessage()}`);
    throw new ProjectError(`The YAML provided in the --args argument is not valid: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, {
      hint: `example: --args '{table_name: orders, days: 3}'`,
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const type = value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;
    throw new ProjectError(`The --args argument must be a YAML dictionary, but was of type '${type}'`, { hint: `example: --args '{table_name: orders}'` });
  }
  return value as Record<string, unknown>;
}

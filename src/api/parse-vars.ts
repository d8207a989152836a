import { createRequire } from 'node:module';
import { ProjectError } from '../errors/project-error.js';
import { aliasLimitMessage, isAliasLimitError, MAX_YAML_ALIAS_COUNT } from '../project/yaml-alias-limit.js';

/** yaml is loaded on the first --vars, not at start-up: the CLI imports this for every command, even --version. */
const loadYaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml') as typeof import('yaml');

/** --vars: a YAML mapping, as in dbt ('{as_of: "2026-09-02", lookback_days: 3}'). */
export function parseVars(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = loadYaml().parse(text, { maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (err) {
    if (isAliasLimitError(err)) throw new ProjectError(`--vars: ${aliasLimitMessage()}`);
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ProjectError(`The YAML provided in the --vars argument is not valid: ${detail}`, {
      hint: `example: --vars '{as_of: "2026-09-02", lookback_days: 3}'`,
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const type = value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value;
    throw new ProjectError(`The --vars argument must be a YAML dictionary, but was of type '${type}'`, {
      hint: `example: --vars '{as_of: "2026-09-02"}'`,
    });
  }
  return value as Record<string, unknown>;
}

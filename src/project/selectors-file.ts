import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { readYamlFile } from './read-yaml-file.js';

/** One named selector of selectors.yml; `definition` is dbt's YAML selector definition, as written (graph/named-selector.ts evaluates it). */
export interface NamedSelector {
  readonly name: string;
  readonly description?: string;
  /** dbt's `default: true`: the selection of a command given no --select, --exclude or --selector. */
  readonly default: boolean;
  readonly definition: unknown;
  readonly location: { readonly file: string; readonly line: number | undefined };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The project's selectors.yml (dbt's named selectors), or none. At most one may be the default, as dbt requires. */
export function loadSelectorsFile(root: string): NamedSelector[] {
  const path = join(root, 'selectors.yml');
  if (!existsSync(path)) return [];
  const yaml = readYamlFile(path, 'selectors.yml');
  if (yaml.value === null || yaml.value === undefined) return [];
  const where = (at: (string | number)[]) => ({ file: 'selectors.yml', line: yaml.lineOf(at) });
  if (!isRecord(yaml.value) || !Array.isArray(yaml.value.selectors)) {
    throw new ProjectError("selectors.yml must have a 'selectors:' list", { location: where([]) });
  }
  const out = yaml.value.selectors.map((entry, i): NamedSelector => {
    if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name === '') {
      throw new ProjectError(`selector ${i + 1} needs a 'name'`, { location: where(['selectors', i]) });
    }
    if (entry.definition === undefined || entry.definition === null) {
      throw new ProjectError(`selector '${entry.name}' has no 'definition'`, { location: where(['selectors', i]) });
    }
    return {
      name: entry.name,
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      default: entry.default === true,
      definition: entry.definition,
      location: where(['selectors', i]),
    };
  });
  const names = new Set<string>();
  for (const s of out) {
    if (names.has(s.name)) throw new ProjectError(`selector '${s.name}' is defined twice in selectors.yml`, { location: s.location });
    names.add(s.name);
  }
  const defaults = out.filter((s) => s.default);
  if (defaults.length > 1) {
    throw new ProjectError(`only one selector can be the default (default: true), found ${defaults.length}: ${defaults.map((s) => s.name).join(', ')}`, { location: defaults[1]!.location });
  }
  return out;
}

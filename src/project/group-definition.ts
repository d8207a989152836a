import { ProjectError } from '../errors/project-error.js';
import type { YamlFile } from './read-yaml-file.js';

/**
 * A dbt group (dbt 1.5+), as a properties file's `groups:` declares it: a name and an owner (a
 * mapping with a name or an email). Models join one with the `group` config; a private model may be
 * referenced only from its own group.
 */
export interface GroupDefinition {
  readonly name: string;
  readonly owner: Readonly<Record<string, unknown>>;
  readonly description?: string;
  readonly location: { readonly file: string; readonly line: number | undefined };
  /** The installed package that declares it; absent for the root project's own. */
  readonly package?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `groups:` of one properties file (E215: no name, no owner, an owner with neither name nor email). */
export function groupEntries(yaml: YamlFile): GroupDefinition[] {
  const list = (yaml.value as Record<string, unknown>).groups;
  if (list === undefined || list === null) return [];
  const where = (path: (string | number)[]) => ({ file: yaml.displayPath, line: yaml.lineOf(path) });
  if (!Array.isArray(list)) throw new ProjectError("'groups' must be a list", { location: where(['groups']) });
  return list.map((entry, i): GroupDefinition => {
    const path = ['groups', i];
    if (!isRecord(entry)) throw new ProjectError(`'groups[${i}]' must be a mapping`, { location: where(path) });
    if (typeof entry.name !== 'string' || entry.name === '') throw new ProjectError("a group has no 'name'", { location: where(path) });
    const owner = entry.owner;
    // dbt's Owner: at least a name or an email.
    if (!isRecord(owner) || (typeof owner.name !== 'string' && typeof owner.email !== 'string')) {
      throw new ProjectError(`group '${entry.name}' needs an 'owner' with a name or an email`, { location: where(isRecord(owner) ? [...path, 'owner'] : path) });
    }
    return {
      name: entry.name, owner,
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      // The line is looked up when read (an error), not for every group of every load.
      location: { file: yaml.displayPath, get line() { return yaml.lineOf(path); } },
    };
  });
}

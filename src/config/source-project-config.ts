/**
 * The project file's `sources:` config tree laid under each source table's own config, as dbt's
 * _generate_source_config does: the tree is walked along the table's fqn (project, the property file's
 * folders below the model path, source name, table name), deeper levels winning, then the yml's config
 * wins over it. Two keys follow dbt's special rules:
 *
 * - `+freshness` applies only when the yml sets no freshness of its own (an object config: not merged
 *   key by key with the yml's; `freshness: null` in the yml turns the check off whatever the project says);
 * - `+loaded_at_field`, `+loaded_at_query` and `+tags` never apply: dbt writes the table's own values
 *   (null, or no tags, when unset) over the project's, so the project's are lost. Kept, with a one-line
 *   warning (E138).
 */
import { ProjectError } from '../errors/project-error.js';
import { warnUser } from '../errors/user-warning.js';
import type { ConfigMap, Project, SourceTable } from '../project/project.js';
import { projectFreshness } from '../project/source-freshness-config.js';
import { folderConfigLayers } from './folder-config.js';
import { mergeConfigs } from './merge-configs.js';

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

const IGNORED = ['loaded_at_field', 'loaded_at_query', 'tags'] as const;

/** Warnings already given (a command may capture the project more than once): each once per process. */
const warned = new Set<string>();

/** The folders of a property file below the model (or seed) path it sits in. */
function ymlFolders(project: Project, file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  for (const root of [...project.paths.models, ...project.paths.seeds]) {
    const rootParts = root.split('/').filter((p) => p !== '' && p !== '.');
    if (rootParts.every((p, i) => parts[i] === p)) return parts.slice(rootParts.length);
  }
  return parts;
}

/** Every `+loaded_at_field`, `+loaded_at_query` and `+tags` in the tree, with its path, for the warning. */
function ignoredKeys(tree: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (!isRecord(tree)) return [];
  const out: (string | number)[][] = [];
  for (const [key, value] of Object.entries(tree)) {
    // A config key: `+name`, or a bare name with a value that is not a mapping (a mapping is a folder, source or table).
    if ((IGNORED as readonly string[]).includes(key.replace(/^\+/, '')) && (key.startsWith('+') || !isRecord(value))) out.push([...path, key]);
    else if (isRecord(value)) out.push(...ignoredKeys(value, [...path, key]));
  }
  return out;
}

/** A freshness block with neither warn_after nor error_after: dbt's falsy FreshnessThreshold. */
const unset = (freshness: unknown): boolean =>
  freshness === undefined || (isRecord(freshness) && freshness.warn_after == null && freshness.error_after == null);

/**
 * A function giving each source table its config with the project file's `sources:` tree under it.
 * Warns once per ignored key (E138); a bad `+freshness` is refused with the project file's line.
 */
export function projectSourceConfigs(project: Project): (table: SourceTable) => ConfigMap {
  const tree = project.sourceFolderConfigs ?? {};
  if (Object.keys(tree).length === 0) return (table) => table.config;
  const file = project.configFile;
  const lineOf = (path: readonly (string | number)[]) => project.configFileLineOf?.(['sources', ...path]);
  for (const path of ignoredKeys(tree)) {
    const key = String(path[path.length - 1]).replace(/^\+/, '');
    const message = `${file}:${lineOf(path) ?? 1}: sources: +${key} is ignored, as dbt ignores it (each source table's own ${key}, even unset, replaces it): set ${key} on the source or table in its yml`;
    if (warned.has(`${project.root}\0${message}`)) continue;
    warned.add(`${project.root}\0${message}`);
    warnUser(message, 'ProjectSourceLoadedAtIgnored');
  }
  return (table) => {
    const folders = [...ymlFolders(project, table.location.file), table.sourceName, table.tableName];
    const fromProject = mergeConfigs(...folderConfigLayers(tree, project.name, folders));
    if (Object.keys(fromProject).length === 0) return table.config;
    const { freshness, ...rest } = fromProject;
    for (const key of IGNORED) delete rest[key];
    const merged: Record<string, unknown> = mergeConfigs(rest, table.config);
    if (freshness !== undefined && unset(table.config.freshness)) {
      merged.freshness = projectFreshness(freshness, (message) => {
        throw new ProjectError(`sources: ${message}`, { location: { file, line: lineOf([project.name, ...folders]) ?? lineOf([]) } });
      }) ?? null;
    }
    return merged;
  };
}

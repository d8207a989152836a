import { ProjectError } from '../errors/project-error.js';
import type { YamlFile } from './read-yaml-file.js';

/** A dbt exposure (a dashboard, an application, ... that reads the project's models) as a properties file declares it. */
export interface ExposureDefinition {
  readonly name: string;
  readonly type: string;
  readonly label?: string;
  readonly description: string;
  readonly url?: string;
  readonly maturity?: string;
  readonly owner: Readonly<Record<string, unknown>>;
  readonly tags: readonly string[];
  readonly meta: Readonly<Record<string, unknown>>;
  readonly enabled: boolean;
  /** Its depends_on entries as written: "ref('orders')", "source('raw', 'payments')". */
  readonly dependsOn: readonly string[];
  readonly location: { readonly file: string; readonly line: number | undefined };
  /** The installed package that declares it; absent for the root project's own. */
  readonly package?: string;
  /** The folders of its properties file below the resource path (dbt's fqn between the package and the name). */
  readonly folders: readonly string[];
}

const TYPES = ['dashboard', 'notebook', 'analysis', 'ml', 'application'];
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The `exposures:` of one properties file. */
export function exposureEntries(yaml: YamlFile): ExposureDefinition[] {
  const doc = yaml.value as Record<string, unknown>;
  const list = doc.exposures;
  if (list === undefined || list === null) return [];
  const where = (path: (string | number)[]) => ({ file: yaml.displayPath, line: yaml.lineOf(path) });
  if (!Array.isArray(list)) throw new ProjectError("'exposures' must be a list", { location: where(['exposures']) });
  return list.map((entry, i): ExposureDefinition => {
    const path = ['exposures', i];
    if (!isRecord(entry)) throw new ProjectError(`'exposures[${i}]' must be a mapping`, { location: where(path) });
    const name = text(entry.name);
    if (!name) throw new ProjectError("an exposure has no 'name'", { location: where(path) });
    const type = text(entry.type);
    if (!type || !TYPES.includes(type)) {
      throw new ProjectError(`exposure '${name}': 'type' must be one of ${TYPES.join(', ')}${type ? `, got '${type}'` : ''}`, { location: where([...path, 'type']) });
    }
    if (!isRecord(entry.owner)) throw new ProjectError(`exposure '${name}' needs an 'owner' (a mapping with a name or an email)`, { location: where(path) });
    const ownConfig = isRecord(entry.config) ? entry.config : {};
    const dependsOn = entry.depends_on === undefined || entry.depends_on === null ? [] : entry.depends_on;
    if (!Array.isArray(dependsOn) || !dependsOn.every((d) => typeof d === 'string')) {
      throw new ProjectError(`exposure '${name}': 'depends_on' must be a list of ref('...') or source('...', '...')`, { location: where([...path, 'depends_on']) });
    }
    const tags = [entry.tags, ownConfig.tags].flatMap((t) => (Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : []));
    return {
      name, type, description: text(entry.description) ?? '', owner: entry.owner,
      ...(text(entry.label) ? { label: text(entry.label)! } : {}),
      ...(text(entry.url) ? { url: text(entry.url)! } : {}),
      ...(text(entry.maturity) ? { maturity: text(entry.maturity)! } : {}),
      tags: [...new Set(tags)],
      meta: { ...(isRecord(entry.meta) ? entry.meta : {}), ...(isRecord(ownConfig.meta) ? ownConfig.meta : {}) },
      enabled: ownConfig.enabled !== false && entry.enabled !== false,
      dependsOn: dependsOn as string[],
      location: where(path),
      folders: yaml.displayPath.split('/').slice(1, -1),
    };
  });
}

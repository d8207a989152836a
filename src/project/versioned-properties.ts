import { ymlEntryLocation } from './yml-entry-location.js';
import { ProjectError } from '../errors/project-error.js';
import type { ColumnProperties, ConfigMap, NodeProperties } from './project.js';
import type { YamlFile } from './read-yaml-file.js';
import { constraintEntries } from './constraint-definition.js';
import { compareVersions, sameVersion, versionKey, type ModelVersion, type VersionValue } from './model-version.js';

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A model entry with `versions:` as dbt reads it: one properties entry per
 * version, keyed `<name>.v<v>`. Each takes the entry's description, config
 * (deep-merged under the version's own), data tests (unless the version
 * has its own) and the columns its `include`/`exclude` element keeps, then
 * its own columns. Errors name the yml file and line: a v that is no number
 * or string, or a malformed include/exclude (E205), a v given twice (E206),
 * a latest_version that is none of the versions (E207).
 */
export function versionedProperties(yaml: YamlFile, entry: Raw, path: readonly (string | number)[], base: NodeProperties): NodeProperties[] {
  const name = base.name;
  const at = (below: readonly (string | number)[]) => ({ file: yaml.displayPath, line: yaml.lineOf([...path, ...below]) ?? yaml.lineOf(path) });
  if (!Array.isArray(entry.versions)) {
    throw new ProjectError(`model '${name}': 'versions' must be a list of entries, each with a v`, { location: at(['versions']) });
  }
  const raw = entry.versions as unknown[];
  const values: VersionValue[] = raw.map((item, i) => {
    const v = isRecord(item) ? item.v : undefined;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v.trim() !== '') return v;
    throw new ProjectError(`model '${name}': version entry ${i + 1} needs a 'v' that is a number or a string, got ${describe(isRecord(item) ? item.v : item)}`, {
      location: at(isRecord(item) && item.v !== undefined ? ['versions', i, 'v'] : ['versions', i]),
    });
  });
  values.forEach((v, i) => {
    const first = values.findIndex((w) => sameVersion(w, v));
    if (first < i) {
      throw new ProjectError(`Found duplicate version: '${String(v)}' in versions list of model '${name}'`, { location: at(['versions', i, 'v']) });
    }
  });
  if (values.length === 0) {
    throw new ProjectError(`model '${name}': 'versions' is empty; list at least one version (- v: 1)`, { location: at(['versions']) });
  }
  const given = entry.latest_version;
  let latest: VersionValue;
  if (given === undefined || given === null) {
    latest = values.reduce((a, b) => (compareVersions(b, a) > 0 ? b : a));
  } else {
    const match = (typeof given === 'number' || typeof given === 'string') ? values.find((v) => sameVersion(v, given)) : undefined;
    if (match === undefined) {
      throw new ProjectError(`latest_version: ${String(given)} is not one of model '${name}' versions: [${values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ')}]`, { location: at(['latest_version']) });
    }
    latest = match;
  }
  return raw.map((item, i) => {
    const version = item as Raw;
    const vPath = [...path, 'versions', i];
    const v = values[i]!;
    const own = ownColumns(yaml, version, vPath, name, v);
    const kept = base.columns.filter((c) => own.keep(c.name));
    // A column of the version's own replaces an inherited one of the same name in its place, as dbt's column dict does.
    const columns = [...kept.map((c) => own.columns.find((o) => o.name === c.name) ?? c), ...own.columns.filter((o) => !kept.some((c) => c.name === o.name))];
    const info: ModelVersion = {
      modelName: name,
      v,
      latest,
      all: values,
      ...(typeof version.defined_in === 'string' && version.defined_in !== '' ? { definedIn: version.defined_in } : {}),
      // dbt: a version's own deprecation_date, else the model's.
      ...(version.deprecation_date !== undefined && version.deprecation_date !== null ? { deprecationDate: dateText(version.deprecation_date) }
        : entry.deprecation_date !== undefined && entry.deprecation_date !== null ? { deprecationDate: dateText(entry.deprecation_date) } : {}),
      location: ymlEntryLocation(yaml, vPath),
    };
    const ownTests = version.data_tests ?? version.tests;
    return {
      ...base,
      name: versionKey(name, v),
      description: typeof version.description === 'string' && version.description !== '' ? version.description : base.description,
      columns,
      config: isRecord(version.config) ? deepMerge(base.config, version.config) : base.config,
      tests: Array.isArray(ownTests) ? ownTests : base.tests,
      // dbt: the version's constraints, else the model's.
      ...(Array.isArray(version.constraints) && version.constraints.length > 0 ? { constraints: constraintEntries(version.constraints, () => ({ file: yaml.displayPath, line: yaml.lineOf([...vPath, 'constraints']) })) } : {}),
      location: info.location,
      lineOf: (below) => yaml.lineOf([...vPath, ...below]) ?? base.lineOf?.(below),
      version: info,
    };
  });
}

/** A version's `columns:`: at most one include/exclude element (which base columns it keeps), then columns of its own. */
function ownColumns(yaml: YamlFile, version: Raw, vPath: (string | number)[], name: string, v: VersionValue): { keep: (column: string) => boolean; columns: ColumnProperties[] } {
  const problem = (why: string, below: (string | number)[]) =>
    new ProjectError(`model '${name}' version ${String(v)}: ${why}`, { location: { file: yaml.displayPath, line: yaml.lineOf([...vPath, ...below]) ?? yaml.lineOf(vPath) } });
  if (version.columns === undefined || version.columns === null) return { keep: () => true, columns: [] };
  if (!Array.isArray(version.columns)) throw problem("'columns' must be a list", ['columns']);
  let keep: ((column: string) => boolean) | undefined;
  const columns: ColumnProperties[] = [];
  version.columns.forEach((c: unknown, i: number) => {
    if (!isRecord(c)) throw problem(`column ${i + 1} must be a mapping`, ['columns', i]);
    if (c.include !== undefined || c.exclude !== undefined) {
      if (keep) throw problem('version can have at most one include/exclude element', ['columns', i]);
      const include = c.include ?? 'all';
      const exclude = c.exclude ?? [];
      const all = include === 'all' || include === '*';
      if (!all && !(Array.isArray(include) && include.every((x) => typeof x === 'string'))) throw problem("'include' must be 'all', '*' or a list of column names", ['columns', i, 'include']);
      if (!(Array.isArray(exclude) && exclude.every((x) => typeof x === 'string'))) throw problem("'exclude' must be a list of column names", ['columns', i, 'exclude']);
      if (!all && (exclude as string[]).length > 0) throw problem("'exclude' goes with include: all (or '*') only", ['columns', i, 'exclude']);
      keep = (column) => (all || (include as string[]).includes(column)) && !(exclude as string[]).includes(column);
      return;
    }
    if (typeof c.name !== 'string') throw problem(`column ${i + 1} has no 'name'`, ['columns', i]);
    const tests = c.data_tests ?? c.tests ?? [];
    columns.push({
      name: c.name,
      description: typeof c.description === 'string' ? c.description : undefined,
      dataType: typeof c.data_type === 'string' ? c.data_type : undefined,
      ...(c.quote === true ? { quote: true } : {}),
      ...(c.constraints !== undefined ? { constraints: constraintEntries(c.constraints, () => ({ file: yaml.displayPath, line: yaml.lineOf([...vPath, 'columns', i, 'constraints']) })) } : {}),
      tests: Array.isArray(tests) ? tests : [],
    });
  });
  return { keep: keep ?? (() => true), columns };
}

/** dbt's deep_merge: mappings merge key by key, anything else is replaced by the later value. */
function deepMerge(a: ConfigMap, b: ConfigMap): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const before = out[key];
    out[key] = isRecord(before) && isRecord(value) ? deepMerge(before, value) : value;
  }
  return out;
}

function dateText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

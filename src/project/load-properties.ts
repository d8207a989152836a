import { ymlEntryLocation } from './yml-entry-location.js';
import { ProjectError } from '../errors/project-error.js';
import type { ColumnProperties, ConfigMap, NodeProperties, SourceTable } from './project.js';
import type { ListedFile } from './list-files.js';
import { readYamlFile, type YamlFile } from './read-yaml-file.js';
import { sourceFreshnessConfig } from './source-freshness-config.js';
import { unitTestEntries } from './load-unit-tests.js';
import { versionedProperties } from './versioned-properties.js';
import type { UnitTestDefinition } from './unit-test-definition.js';
import { exposureEntries, type ExposureDefinition } from './exposure-definition.js';
import { constraintEntries } from './constraint-definition.js';
import { groupEntries, type GroupDefinition } from './group-definition.js';

export interface LoadedProperties {
  readonly models: Map<string, NodeProperties>;
  readonly seeds: Map<string, NodeProperties>;
  readonly sources: SourceTable[];
  /** `unit_tests:` entries (dbt 1.8), in file order. */
  readonly unitTests: UnitTestDefinition[];
  /** `exposures:` entries, in file order. */
  readonly exposures: ExposureDefinition[];
  /** `groups:` entries (dbt 1.5), in file order. */
  readonly groups: GroupDefinition[];
  /** `analyses:` entries, by name. */
  readonly analyses: Map<string, NodeProperties>;
}

type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

function listOf(yaml: YamlFile, value: unknown, path: (string | number)[]): Raw[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new ProjectError(`'${path.join('.')}' must be a list`, { location: { file: yaml.displayPath, line: yaml.lineOf(path) } });
  }
  return value.map((item, i) => {
    if (!isRecord(item)) {
      throw new ProjectError(`'${path.join('.')}[${i}]' must be a mapping`, { location: { file: yaml.displayPath, line: yaml.lineOf([...path, i]) } });
    }
    return item;
  });
}

function testsOf(yaml: YamlFile, entry: Raw, path: (string | number)[]): unknown[] {
  if (entry.tests !== undefined && entry.data_tests !== undefined) {
    throw new ProjectError("Invalid test config: cannot have both 'tests' and 'data_tests' defined", {
      location: { file: yaml.displayPath, line: yaml.lineOf(path) },
    });
  }
  const tests = entry.data_tests ?? entry.tests ?? [];
  return Array.isArray(tests) ? tests : [];
}

function columnsOf(yaml: YamlFile, entry: Raw, path: (string | number)[]): ColumnProperties[] {
  return listOf(yaml, entry.columns, [...path, 'columns']).map((c, i) => {
    if (typeof c.name !== 'string') {
      throw new ProjectError(`column ${i} has no 'name'`, { location: { file: yaml.displayPath, line: yaml.lineOf([...path, 'columns', i]) } });
    }
    return {
      name: c.name,
      description: typeof c.description === 'string' ? c.description : undefined,
      dataType: typeof c.data_type === 'string' ? c.data_type : undefined,
      ...(c.quote === true ? { quote: true } : {}),
      ...(c.constraints !== undefined ? { constraints: constraintEntries(c.constraints, () => ({ file: yaml.displayPath, line: yaml.lineOf([...path, 'columns', i, 'constraints']) })) } : {}),
      tests: testsOf(yaml, c, [...path, 'columns', i]),
    };
  });
}

function configOf(yaml: YamlFile, entry: Raw, path: (string | number)[]): ConfigMap {
  if (entry.config === undefined || entry.config === null) return {};
  if (!isRecord(entry.config)) {
    throw new ProjectError(`'config' must be a mapping`, { location: { file: yaml.displayPath, line: yaml.lineOf([...path, 'config']) } });
  }
  return entry.config;
}

/** A seed's `event_time` / `loaded_at` may sit at table level, as on sources; config wins. */
function withTimeKeys(entry: Raw, config: ConfigMap): ConfigMap {
  const lifted: Record<string, unknown> = {};
  for (const key of ['event_time', 'loaded_at'] as const) {
    if (entry[key] !== undefined && config[key] === undefined) lifted[key] = entry[key];
  }
  return Object.keys(lifted).length > 0 ? { ...config, ...lifted } : config;
}

/** A model's `access` and `group` may sit at entry level (dbt's properties); config wins. */
function withAccessKeys(entry: Raw, config: ConfigMap): ConfigMap {
  if (entry.access === undefined && entry.group === undefined) return config;
  const lifted: Record<string, unknown> = {};
  for (const key of ['access', 'group'] as const) {
    if (entry[key] !== undefined && config[key] === undefined) lifted[key] = entry[key];
  }
  return { ...config, ...lifted };
}

function nodeEntries(yaml: YamlFile, key: 'models' | 'seeds' | 'analyses', into: Map<string, NodeProperties>): void {
  const doc = yaml.value as Raw;
  listOf(yaml, doc[key], [key]).forEach((entry, i) => {
    const path = [key, i];
    if (typeof entry.name !== 'string') {
      throw new ProjectError(`an entry under '${key}' has no 'name'`, { location: { file: yaml.displayPath, line: yaml.lineOf(path) } });
    }
    const previous = into.get(entry.name);
    if (previous) {
      throw new ProjectError(`'${entry.name}' is described twice (also in ${previous.location.file}:${previous.location.line ?? 1})`, {
        location: { file: yaml.displayPath, line: yaml.lineOf(path) },
      });
    }
    into.set(entry.name, {
      name: entry.name,
      description: typeof entry.description === 'string' ? entry.description : undefined,
      columns: columnsOf(yaml, entry, path),
      ...(key === 'models' && entry.deprecation_date !== undefined && entry.deprecation_date !== null
        ? { deprecationDate: entry.deprecation_date instanceof Date ? entry.deprecation_date.toISOString() : String(entry.deprecation_date) } : {}),
      // dbt's (MetricFlow's) `time_spine:` of a model: the manifest's time_spine (graph.nodes' too; dbt_project_evaluator leaves time spines out of its root models).
      ...(key === 'models' && typeof entry.time_spine === 'object' && entry.time_spine !== null && !Array.isArray(entry.time_spine)
        ? { timeSpine: { custom_granularities: [], ...(entry.time_spine as Record<string, unknown>) } } : {}),
      ...(key === 'models' && entry.constraints !== undefined ? { constraints: constraintEntries(entry.constraints, () => ({ file: yaml.displayPath, line: yaml.lineOf([...path, 'constraints']) })) } : {}),
      config: key === 'seeds' ? withTimeKeys(entry, configOf(yaml, entry, path)) : key === 'models' ? withAccessKeys(entry, configOf(yaml, entry, path)) : configOf(yaml, entry, path),
      tests: testsOf(yaml, entry, path),
      location: ymlEntryLocation(yaml, path),
      lineOf: (below) => yaml.lineOf([...path, ...below]),
    });
    // dbt's model versions: one entry per version (`<name>.v<v>`) in place of the model's.
    if (key === 'models' && entry.versions !== undefined && entry.versions !== null) {
      const base = into.get(entry.name)!;
      into.delete(entry.name);
      for (const version of versionedProperties(yaml, entry, path, base)) {
        const other = into.get(version.name);
        if (other) {
          throw new ProjectError(`'${entry.name}' is described twice (also in ${other.location.file}:${other.location.line ?? 1})`, { location: { file: yaml.displayPath, line: yaml.lineOf(path) } });
        }
        into.set(version.name, version);
      }
    }
  });
}

function sourceEntries(yaml: YamlFile, into: SourceTable[]): void {
  const doc = yaml.value as Raw;
  listOf(yaml, doc.sources, ['sources']).forEach((source, i) => {
    if (typeof source.name !== 'string') {
      throw new ProjectError(`a source has no 'name'`, { location: { file: yaml.displayPath, line: yaml.lineOf(['sources', i]) } });
    }
    const sourceConfig = configOf(yaml, source, ['sources', i]);
    listOf(yaml, source.tables, ['sources', i, 'tables']).forEach((table, j) => {
      const path = ['sources', i, 'tables', j];
      if (typeof table.name !== 'string') {
        throw new ProjectError(`a table of source '${source.name}' has no 'name'`, { location: { file: yaml.displayPath, line: yaml.lineOf(path) } });
      }
      const tableConfig = configOf(yaml, table, path);
      const config: Record<string, unknown> = { ...sourceConfig, ...tableConfig };
      for (const key of ['event_time', 'loaded_at'] as const) {
        if (table[key] !== undefined) config[key] = table[key];
        else if (source[key] !== undefined && config[key] === undefined) config[key] = source[key];
      }
      const problem = (base: (string | number)[]) => (message: string, below: readonly (string | number)[]): never => {
        throw new ProjectError(message, { location: { file: yaml.displayPath, line: yaml.lineOf([...base, ...below]) ?? yaml.lineOf(base) } });
      };
      Object.assign(config, sourceFreshnessConfig(source, sourceConfig, table, tableConfig, { source: problem(['sources', i]), table: problem(path) }));
      into.push({
        sourceName: source.name as string,
        tableName: table.name,
        identifier: typeof table.identifier === 'string' ? table.identifier : table.name,
        // dbt: a source's schema defaults to its name.
        schema: typeof source.schema === 'string' && source.schema !== '' ? source.schema : source.name as string,
        description: typeof table.description === 'string' ? table.description : undefined,
        ...(typeof source.description === 'string' ? { sourceDescription: source.description } : {}),
        ...(typeof source.loader === 'string' ? { loader: source.loader } : {}),
        columns: columnsOf(yaml, table, path),
        config,
        location: ymlEntryLocation(yaml, path),
        tests: testsOf(yaml, table, path),
        lineOf: (below) => yaml.lineOf([...path, ...below]),
      });
    });
  });
}

/** Read every property yml under the model and seed paths. */
export function loadProperties(files: readonly ListedFile[]): LoadedProperties {
  const out: LoadedProperties = { models: new Map(), seeds: new Map(), sources: [], unitTests: [], exposures: [], analyses: new Map(), groups: [] };
  for (const file of files) {
    const yaml = readYamlFile(file.absPath, file.path);
    if (yaml.value === null || yaml.value === undefined) continue;
    if (!isRecord(yaml.value)) {
      throw new ProjectError('a properties file must be a mapping', { location: { file: file.path, line: 1 } });
    }
    nodeEntries(yaml, 'models', out.models);
    nodeEntries(yaml, 'seeds', out.seeds);
    nodeEntries(yaml, 'analyses', out.analyses);
    sourceEntries(yaml, out.sources);
    out.unitTests.push(...unitTestEntries(yaml, file));
    out.exposures.push(...exposureEntries(yaml));
    out.groups.push(...groupEntries(yaml));
  }
  return out;
}

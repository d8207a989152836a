import type { VersionValue } from './model-version.js';
import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { ListedFile } from './list-files.js';
import type { YamlFile } from './read-yaml-file.js';
import type { FixtureFormat, UnitTestDefinition, UnitTestRows } from './unit-test-definition.js';

type Raw = Record<string, unknown>;
type Path = (string | number)[];

const FORMATS: readonly FixtureFormat[] = ['dict', 'csv', 'sql'];
const KEYS = ['name', 'model', 'description', 'given', 'expect', 'overrides', 'config', 'versions'];
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The `unit_tests:` entries of one properties file (dbt 1.8), checked for
 * shape: a name and a model, `given` a list of inputs, `expect`, each rows
 * block in its format (dict: a list of mappings; csv and sql: text), or a
 * fixture file's name. Which model and inputs exist is checked later, once
 * the project's nodes are known.
 */
export function unitTestEntries(yaml: YamlFile, file: ListedFile): UnitTestDefinition[] {
  const list = (yaml.value as Raw).unit_tests;
  if (list === undefined || list === null) return [];
  const fail = (message: string, path: Path, hint?: string): never => {
    throw new ProjectError(message, { location: { file: yaml.displayPath, line: yaml.lineOf(path) ?? yaml.lineOf(['unit_tests']) }, hint });
  };
  if (!Array.isArray(list)) fail("'unit_tests' must be a list of unit tests", ['unit_tests']);
  return (list as unknown[]).map((entry, i) => {
    const at: Path = ['unit_tests', i];
    if (!isRecord(entry)) return fail(`'unit_tests[${i}]' must be a mapping with name, model, given and expect`, at);
    const name = entry.name;
    if (typeof name !== 'string' || name.trim() === '') return fail(`unit test ${i} has no 'name'`, at);
    const what = `unit test '${name}'`;
    for (const key of Object.keys(entry)) {
      if (!KEYS.includes(key)) fail(`${what}: unknown key '${key}'.${didYouMeanSuffix(key, KEYS)}`, [...at, key], `a unit test takes ${KEYS.join(', ')}`);
    }
    if (typeof entry.model !== 'string' || entry.model.trim() === '') return fail(`${what} has no 'model': the name of the model it tests`, at);
    const given = entry.given ?? [];
    if (!Array.isArray(given)) return fail(`${what}: 'given' must be a list of inputs (- input: ref('x') with rows)`, [...at, 'given']);
    if (!isRecord(entry.expect)) return fail(`${what} has no 'expect': the rows the model must return`, [...at, 'expect'], 'write expect: {rows: [...]} (rows: [] when the model must return none)');
    const givenRows = given.map((g: unknown, j: number) => rowsBlock(g, [...at, 'given', j], `${what}: given input ${j + 1}`, true, fail, yaml));
    const expect = rowsBlock(entry.expect, [...at, 'expect'], `${what}: expect`, false, fail, yaml);
    const overrides = isRecord(entry.overrides) ? entry.overrides : {};
    if (entry.overrides !== undefined && entry.overrides !== null && !isRecord(entry.overrides)) fail(`${what}: 'overrides' must be a mapping of macros, vars and env_vars`, [...at, 'overrides']);
    for (const key of Object.keys(overrides)) {
      if (!['macros', 'vars', 'env_vars'].includes(key)) fail(`${what}: unknown overrides key '${key}'.${didYouMeanSuffix(key, ['macros', 'vars', 'env_vars'])}`, [...at, 'overrides', key]);
    }
    const mapping = (key: string): Raw => {
      const value = overrides[key];
      if (value === undefined || value === null) return {};
      if (!isRecord(value)) return fail(`${what}: 'overrides.${key}' must be a mapping`, [...at, 'overrides', key]);
      return value;
    };
    const envVars = Object.fromEntries(Object.entries(mapping('env_vars')).map(([k, v]) => [k, v === null ? '' : String(v)]));
    const config = entry.config === undefined || entry.config === null ? {} : entry.config;
    if (!isRecord(config)) return fail(`${what}: 'config' must be a mapping (tags, meta, enabled)`, [...at, 'config']);
    if (entry.description !== undefined && entry.description !== null && typeof entry.description !== 'string') fail(`${what}: 'description' must be text`, [...at, 'description']);
    const versions = versionsOf(entry.versions, (message) => fail(`${what}: ${message}`, [...at, 'versions']));
    return {
      ...(versions ? { versions } : {}),
      name,
      model: entry.model.trim(),
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      given: givenRows,
      expect,
      overrides: { macros: mapping('macros'), vars: mapping('vars'), envVars },
      config,
      path: yaml.displayPath,
      // Lines are looked up only when an error names one: finding them parses the file again with positions.
      get line() {
        return yaml.lineOf(at) ?? 1;
      },
      folders: file.folders,
    };
  });
}

/** A unit test's `versions:` ({include: [1, 2]} or {exclude: [1]}); versions are numbers or strings. */
function versionsOf(value: unknown, fail: (message: string) => never): UnitTestDefinition['versions'] {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) return fail("'versions' must be a mapping with include or exclude (a list of versions)");
  const out: { include?: VersionValue[]; exclude?: VersionValue[] } = {};
  for (const [key, list] of Object.entries(value)) {
    if (key !== 'include' && key !== 'exclude') return fail(`unknown versions key '${key}': it takes include or exclude`);
    if (list === null) continue;
    if (!Array.isArray(list) || !list.every((v) => typeof v === 'number' || typeof v === 'string')) return fail(`'versions.${key}' must be a list of versions (numbers or strings)`);
    out[key] = list as VersionValue[];
  }
  return out;
}

function rowsBlock(value: unknown, at: Path, what: string, isGiven: boolean, fail: (message: string, path: Path, hint?: string) => never, yaml: YamlFile): UnitTestRows {
  if (!isRecord(value)) return fail(`${what} must be a mapping${isGiven ? ' with input and rows' : ' with rows'}`, at);
  const allowed = isGiven ? ['input', 'format', 'rows', 'fixture'] : ['format', 'rows', 'fixture'];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(`${what}: unknown key '${key}'.${didYouMeanSuffix(key, allowed)}`, [...at, key], `it takes ${allowed.join(', ')}`);
  }
  if (isGiven && (typeof value.input !== 'string' || value.input.trim() === '')) {
    fail(`${what} has no 'input': ref('model'), source('source', 'table') or this`, at);
  }
  const format = value.format ?? 'dict';
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
    return fail(`${what}: format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}.${didYouMeanSuffix(String(format), FORMATS)}`, [...at, 'format']);
  }
  const rows = value.rows;
  const fixture = value.fixture;
  if (fixture !== undefined && fixture !== null && typeof fixture !== 'string') fail(`${what}: 'fixture' must be the name of a file under tests/fixtures`, [...at, 'fixture']);
  if (format === 'dict') {
    if (fixture !== undefined && fixture !== null) fail(`${what}: a fixture file needs format: csv or format: sql`, [...at, 'fixture']);
    if (rows !== undefined && rows !== null) {
      if (!Array.isArray(rows)) fail(`${what}: rows do not match format dict: expected a list of mappings, e.g. rows: [{id: 1, amount: 9.5}]`, [...at, 'rows']);
      (rows as unknown[]).forEach((row, k) => {
        if (!isRecord(row)) fail(`${what}: row ${k + 1} must be a mapping of column: value`, [...at, 'rows', k]);
      });
    } else if (!isGiven) {
      fail(`${what} has no rows: write rows: [] when the model must return none`, at);
    }
  } else {
    if ((rows === undefined || rows === null) && (fixture === undefined || fixture === null)) fail(`${what}: format ${format} needs rows (text) or a fixture file`, at);
    if (rows !== undefined && rows !== null && typeof rows !== 'string') fail(`${what}: rows do not match format ${format}: expected text (a block string, rows: |)`, [...at, 'rows']);
  }
  return {
    ...(isGiven ? { input: (value.input as string).trim() } : {}),
    format: format as FixtureFormat,
    ...(rows !== undefined && rows !== null ? { rows } : {}),
    ...(typeof fixture === 'string' ? { fixture } : {}),
    get line() {
      return yaml.lineOf(at);
    },
  };
}

/**
 * Jinja in yml values, rendered as dbt renders it at parse time:
 *
 * - the project file's `models:`, `seeds:` and `data_tests:` trees (`+enabled: "{{ var('load', false) }}"`),
 *   hooks excepted (rendered when they run). As dbt's DbtProjectYamlRenderer does, var() sees only --vars
 *   (the project's own `vars:` are not known yet when dbt reads its project file);
 * - property yml entries (models, seeds, sources): config values (hooks excepted), a source table's
 *   `identifier`, column `data_type`, with var() seeing --vars over the project's vars (dbt's
 *   SchemaYamlRenderer with the SchemaYamlContext);
 * - descriptions (model, seed, source, snapshot, column), rendered to text as dbt's process_docs does, with
 *   dbt's doc() reading the project's `{% docs %}` blocks (compile/doc-function.ts).
 *
 * Values render "natively" as dbt's do: a value that is exactly one `{{ expression }}` keeps the
 * expression's type (`false`, a number, a list), anything else renders to a string. The context is
 * dbt's yml context: var, env_var, target and the rest of the base context; no ref() or source().
 * An error names the yml file and the line of the value.
 *
 * The vars read are returned: captureProject adds them to every capture's vars, so the parse cache
 * and withVars follow a yml value that reads a var exactly as they follow a model that does.
 */
import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { Target } from '../project/target.js';
import type { ColumnProperties, ConfigMap, NodeProperties, Project, SourceTable } from '../project/project.js';
import { JinjaEnvironment } from '../compile/jinja-environment.js';
import type { ProfileRenderer } from '../project/load-target.js';
import type { PackageProject } from '../project/load-packages.js';
import { FILE_TARGET } from '../project/target.js';
import { splitKeywordArgs } from '../compile/keyword-args.js';
import { Relation } from '../compile/relation.js';
import type { RenderState } from '../compile/render-state.js';
import { PARSE_CONTEXT } from '../invocation/run-context.js';
import type { DocsBlock } from '../project/docs-block.js';
import type { SnapshotDefinition } from '../project/snapshot-definition.js';
import { docFunction } from '../compile/doc-function.js';
import type { TestNode } from '../compile/test-node.js';
import { hasJinja, HOOK_KEYS, JINJA } from './yml-jinja.js';
import { renderTests, testConfigValues } from './yml-test-entries.js';

export interface YmlRendering {
  /** The project with its yml values rendered (the same object when no value holds Jinja). */
  readonly project: Project;
  /** The names of the vars the rendering read, set or not. */
  readonly varsRead: readonly string[];
}

type Path = readonly (string | number)[];
type Vars = Readonly<Record<string, unknown>>;

/** A value that is one `{{ expression }}` and nothing else: rendered to the expression's own value. */
const SINGLE_EXPRESSION = /^\{\{-?((?:(?!\{\{|\}\}|\{%|%\}|\{#)[\s\S])*?)-?\}\}$/;
const CAPTURE = 'mini_dbt_yml_value';

interface Where {
  readonly file: string;
  readonly line: (path: Path) => number | undefined;
  /** The unique id of the node whose descriptions these are (doc()'s error names it). */
  readonly owner?: string;
}

/** What doc() reads: the project's docs blocks by name. */
interface DocsLookup {
  readonly blocks: ReadonlyMap<string, DocsBlock>;
  readonly projectName: string;
}

/** Renders yml strings with one var source (the project file's or the property files'). */
class YmlRenderer {
  constructor(
    private readonly jinja: () => JinjaEnvironment,
    private readonly vars: Vars,
    private readonly read: Set<string>,
    private readonly varHint: string,
    private readonly databasePath: string,
    private readonly target: Target,
    private readonly docs?: DocsLookup,
  ) {}

  /** A config tree: every string rendered natively, hook keys left for when they run. */
  tree(value: unknown, path: Path, where: Where): unknown {
    if (typeof value === 'string') return this.value(value, path, where, true);
    if (!hasJinja(value)) return value;
    if (Array.isArray(value)) return value.map((item, i) => this.tree(item, [...path, i], where));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        out[key] = HOOK_KEYS.has(key.replace(/^[+\s]+/, '')) ? item : this.tree(item, [...path, key], where);
      }
      return out;
    }
    return value;
  }

  /** One string: natively (its expression's value) or as text. */
  value(text: string, path: Path, where: Where, native: boolean, withDoc = false): unknown {
    if (!JINJA.test(text)) return text;
    const single = native ? SINGLE_EXPRESSION.exec(text) : null;
    let captured: unknown;
    const state = this.state(where.file);
    let docFailure: ProjectError | undefined;
    const locals: Record<string, unknown> = {
      var: this.varFunction(state),
      env_var: envVar(state),
      [CAPTURE]: (v: unknown) => {
        captured = v;
        return '';
      },
    };
    if (withDoc && this.docs && where.owner) {
      locals.doc = docFunction(this.docs.blocks, this.docs.projectName, where.owner, (err) => {
        docFailure = err;
        state.failure = err;
      });
    }
    const label = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
    try {
      const rendered = this.jinja().render(`${where.file}#${label}`, single ? `{{ ${CAPTURE}(${single[1]}) }}` : text, state, locals);
      if (!single) return rendered;
    } catch (err) {
      // doc()'s own message (a doc that does not exist) is the whole story: no "could not render" around it.
      if (docFailure) throw new ProjectError(docFailure.message, { location: { file: where.file, line: where.line(path) }, hint: docFailure.hint });
      const inner = err instanceof Error ? err.message : String(err);
      throw new ProjectError(`could not render '${label}' (${JSON.stringify(text)}): ${inner}`, {
        location: { file: where.file, line: where.line(path) },
        hint: err instanceof ProjectError ? err.hint : undefined,
      });
    }
    if (captured === undefined) return '';
    // A SafeString (markSafe, a macro's output) is text.
    return typeof captured === 'object' && captured !== null && captured.constructor?.name === 'SafeString' ? String(captured) : captured;
  }

  /** Text (descriptions): rendered to a string, as dbt renders docs. */
  text(text: string | undefined, path: Path, where: Where): string | undefined {
    return text === undefined ? undefined : String(this.value(text, path, where, false, true));
  }

  private varFunction(state: RenderState) {
    return (...args: unknown[]) => {
      const { positional, keywords } = splitKeywordArgs(args);
      const name = String(positional[0] ?? keywords.var_name);
      this.read.add(name);
      if (Object.prototype.hasOwnProperty.call(this.vars, name) && this.vars[name] !== undefined) return this.vars[name];
      if (positional.length > 1) return positional[1];
      if ('default' in keywords) return keywords.default;
      const err = new ProjectError(`Required var '${name}' not found in config.${didYouMeanSuffix(name, Object.keys(this.vars))}`, { hint: this.varHint });
      state.failure = err;
      throw err;
    };
  }

  private state(file: string): RenderState {
    const refuse = (what: string) => () => {
      throw new ProjectError(`${what}() cannot be used in a yml value (dbt renders yml without the graph)`);
    };
    return {
      modelName: file,
      modelPath: file,
      execute: false,
      vars: (name) => ({ found: Object.prototype.hasOwnProperty.call(this.vars, name) && this.vars[name] !== undefined, value: this.vars[name] }),
      varNames: () => Object.keys(this.vars),
      ref: refuse('ref'),
      source: refuse('source'),
      self: new Relation(''),
      isIncremental: () => false,
      config: {},
      captured: { refs: [], sources: [], config: {} },
      run: PARSE_CONTEXT,
      target: this.target,
      databasePath: this.databasePath,
      log: () => undefined,
    };
  }
}

function envVar(state: RenderState) {
  return (...args: unknown[]) => {
    const name = String(args[0]);
    const value = process.env[name];
    if (value !== undefined) return value;
    if (args.length > 1 && args[1] !== undefined && args[1] !== null) return String(args[1]);
    const err = new ProjectError(`Env var required but not provided: '${name}'`);
    state.failure = err;
    throw err;
  };
}

/**
 * Render a profile's values as dbt renders profiles.yml: env_var() (secrets) and var() seeing --vars.
 * The environment is built only when a value holds Jinja.
 */
export function profileRenderer(cliVars: Vars): ProfileRenderer {
  let env: JinjaEnvironment | undefined;
  return (value, file, lineOf, path) => {
    if (!hasJinja(value)) return value;
    const renderer = new YmlRenderer(() => (env ??= new JinjaEnvironment([])), cliVars, new Set<string>(),
      'a profile sees only --vars, as dbt\'s does: pass it with --vars, or give var() a default', '', FILE_TARGET);
    return renderer.tree(value, path, { file, line: lineOf });
  };
}

/** Render the Jinja in the project's yml values (see the top of this file). */
export function renderYmlValues(
  project: Project,
  options: { readonly jinja: () => JinjaEnvironment; readonly cliVars: Vars; readonly vars: Vars },
): YmlRendering {
  const docs: DocsLookup = { blocks: new Map((project.docsBlocks ?? []).map((b) => [b.name, b])), projectName: project.name };
  const projectFileJinja = hasJinja([project.modelFolderConfigs, project.seedFolderConfigs, project.testFolderConfigs]);
  const propertiesJinja = hasJinja([...project.modelProperties.values(), ...project.seedProperties.values()].map(propertyValues))
    || hasJinja(project.sources.map(sourceValues)) || hasJinja((project.snapshots ?? []).map(snapshotValues));
  // An installed package's project file is rendered too (dbt_project_evaluator's `+materialized: "{{ 'table' if target.type ... }}"`).
  const packageFolderConfigs = (p: PackageProject) => [p.modelFolderConfigs, p.seedFolderConfigs, p.testFolderConfigs];
  const packagesJinja = (project.packages ?? []).some((p) => hasJinja(packageFolderConfigs(p)));
  if (!projectFileJinja && !propertiesJinja && !packagesJinja) return { project, varsRead: [] };

  const read = new Set<string>();
  const fileRenderer = new YmlRenderer(options.jinja, options.cliVars, read,
    "the project file's Jinja sees only --vars, as dbt's does: pass it with --vars, or give var() a default", project.databasePath, project.target);
  const ymlRenderer = new YmlRenderer(options.jinja, options.vars, read,
    'pass it with --vars, set it under vars: in the project file, or give var() a default', project.databasePath, project.target, docs);

  const projectFile: Where = {
    file: project.configFile,
    line: (path) => {
      const [first, ...rest] = path;
      const lineOf = project.configFileLineOf;
      if (!lineOf) return undefined;
      return first === 'data_tests' ? (lineOf(path) ?? lineOf(['tests', ...rest])) : lineOf(path);
    },
  };
  const tree = (config: ConfigMap, key: string): ConfigMap =>
    hasJinja(config) ? (fileRenderer.tree(config, [key], projectFile) as ConfigMap) : config;

  const renderPackage = (p: PackageProject): PackageProject => {
    if (!hasJinja(packageFolderConfigs(p))) return p;
    const where: Where = { file: `${p.path}/dbt_project.yml`, line: () => undefined };
    const render = (config: ConfigMap, key: string): ConfigMap => (hasJinja(config) ? (fileRenderer.tree(config, [key], where) as ConfigMap) : config);
    return { ...p, modelFolderConfigs: render(p.modelFolderConfigs, 'models'), seedFolderConfigs: render(p.seedFolderConfigs, 'seeds'), testFolderConfigs: render(p.testFolderConfigs, 'data_tests') };
  };

  const rendered: Project = {
    ...project,
    ...(packagesJinja ? { packages: project.packages!.map(renderPackage) } : {}),
    modelFolderConfigs: tree(project.modelFolderConfigs, 'models'),
    seedFolderConfigs: tree(project.seedFolderConfigs, 'seeds'),
    testFolderConfigs: tree(project.testFolderConfigs, 'data_tests'),
    modelProperties: propertiesJinja ? renderProperties(project.modelProperties, ymlRenderer, `model.${project.name}`) : project.modelProperties,
    seedProperties: propertiesJinja ? renderProperties(project.seedProperties, ymlRenderer, `seed.${project.name}`) : project.seedProperties,
    sources: propertiesJinja ? project.sources.map((table) => renderSource(table, ymlRenderer, `source.${project.name}`)) : project.sources,
    snapshots: propertiesJinja ? project.snapshots?.map((s) => renderSnapshot(s, ymlRenderer, `snapshot.${project.name}`)) : project.snapshots,
  };
  return { project: rendered, varsRead: [...read] };
}

/** What of a model or seed entry is rendered here (its tests' arguments are rendered by data-tests/, their configs here). */
const propertyValues = (p: NodeProperties) => [p.description, p.config, p.columns.map((c) => [c.description, c.dataType]), testConfigValues(p.tests, p.columns)];
const sourceValues = (t: SourceTable) => [t.identifier, t.schema, t.description, t.sourceDescription, t.config, t.columns.map((c) => [c.description, c.dataType]), testConfigValues(t.tests ?? [], t.columns)];

const snapshotValues = (s: SnapshotDefinition) => [s.description, (s.columns ?? []).map((c) => [c.description, c.dataType])];

function whereOf(entry: NodeProperties | SourceTable, owner: string): Where {
  return { file: entry.location.file, line: (path) => entry.lineOf?.(path) ?? entry.location.line, owner };
}

function renderColumns(columns: readonly ColumnProperties[], renderer: YmlRenderer, where: Where): ColumnProperties[] {
  return columns.map((column, i) => {
    if (!hasJinja([column.description, column.dataType, testConfigValues(column.tests, [])])) return column;
    const dataType = column.dataType === undefined ? undefined : renderer.value(column.dataType, ['columns', i, 'data_type'], where, true);
    return {
      ...column,
      tests: renderTests(column.tests, (text, path) => renderer.value(text, path, where, true), ['columns', i, 'data_tests']),
      description: renderer.text(column.description, ['columns', i, 'description'], where),
      dataType: dataType === undefined || dataType === null ? undefined : String(dataType),
    };
  });
}

function renderConfig(config: ConfigMap, renderer: YmlRenderer, where: Where): ConfigMap {
  return hasJinja(config) ? (renderer.tree(config, ['config'], where) as ConfigMap) : config;
}

function renderProperties(entries: ReadonlyMap<string, NodeProperties>, renderer: YmlRenderer, idPrefix: string): ReadonlyMap<string, NodeProperties> {
  const out = new Map<string, NodeProperties>();
  for (const [name, entry] of entries) {
    if (!hasJinja(propertyValues(entry))) {
      out.set(name, entry);
      continue;
    }
    const where = whereOf(entry, `${idPrefix}.${name}`);
    out.set(name, {
      ...entry,
      description: renderer.text(entry.description, ['description'], where),
      config: renderConfig(entry.config, renderer, where),
      columns: renderColumns(entry.columns, renderer, where),
      tests: renderTests(entry.tests, (text, path) => renderer.value(text, path, where, true), ['data_tests']),
    });
  }
  return out;
}

function renderSource(table: SourceTable, renderer: YmlRenderer, idPrefix: string): SourceTable {
  if (!hasJinja(sourceValues(table))) return table;
  const where = whereOf(table, `${idPrefix}.${table.sourceName}.${table.tableName}`);
  const identifier = renderer.value(table.identifier, ['identifier'], where, true);
  const schema = renderer.value(table.schema, ['schema'], where, true);
  return {
    ...table,
    identifier: identifier === undefined || identifier === null || identifier === '' ? table.tableName : String(identifier),
    schema: schema === undefined || schema === null || schema === '' ? table.sourceName : String(schema),
    description: renderer.text(table.description, ['description'], where),
    ...(table.sourceDescription === undefined ? {} : { sourceDescription: renderer.text(table.sourceDescription, ['description'], where) }),
    config: renderConfig(table.config, renderer, where),
    columns: renderColumns(table.columns, renderer, where),
    ...(table.tests ? { tests: renderTests(table.tests, (text, path) => renderer.value(text, path, where, true), ['data_tests']) } : {}),
  };
}

/** A yml snapshot entry's description and column descriptions (its config is rendered where its body is). */
function renderSnapshot(snapshot: SnapshotDefinition, renderer: YmlRenderer, idPrefix: string): SnapshotDefinition {
  if (!hasJinja(snapshotValues(snapshot))) return snapshot;
  const at = snapshot.propertiesAt ?? { file: snapshot.path, line: snapshot.line };
  const where: Where = { file: at.file, line: () => at.line, owner: `${idPrefix}.${snapshot.name}` };
  return { ...snapshot, description: renderer.text(snapshot.description, ['description'], where), columns: snapshot.columns && renderColumns(snapshot.columns, renderer, where) };
}

/** Data tests' `description`s, rendered as the other descriptions are (doc() included); the map is updated in place. */
export function renderTestDescriptions(
  tests: Map<string, TestNode>,
  project: Project,
  options: { readonly jinja: () => JinjaEnvironment; readonly vars: Vars },
): void {
  const docs: DocsLookup = { blocks: new Map((project.docsBlocks ?? []).map((b) => [b.name, b])), projectName: project.name };
  let renderer: YmlRenderer | undefined;
  for (const [id, test] of tests) {
    if (test.description === undefined || !JINJA.test(test.description)) continue;
    renderer ??= new YmlRenderer(options.jinja, options.vars, new Set<string>(),
      'pass it with --vars, set it under vars: in the project file, or give var() a default', project.databasePath, project.target, docs);
    const where: Where = { file: test.path, line: () => test.lineOf?.(), owner: id };
    tests.set(id, { ...test, description: renderer.text(test.description, ['description'], where) });
  }
}

/** The yml rendering behind a manifest, keyed by its models map (which withVars' spreads keep). */
const renderingBehind = new WeakMap<object, YmlRendering>();

export function rememberYmlRendering(models: object, rendering: YmlRendering): void {
  renderingBehind.set(models, rendering);
}

/** The yml rendering a manifest was captured with (its project's values rendered, and the vars they read). */
export function ymlRenderingOf(models: object): YmlRendering | undefined {
  return renderingBehind.get(models);
}

import { refModelKey } from '../compile/versioned-ref.js';
import type { JinjaEnvironment } from '../compile/jinja-environment.js';
import type { ModelNode, SeedNode, SourceNode } from '../compile/manifest.js';
import { folderConfigLayers, packageConfigLayers } from '../config/folder-config.js';
import { mergeConfigs } from '../config/merge-configs.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import type { ColumnProperties, ConfigMap, Project, SourceLocation } from '../project/project.js';
import { parseTestEntry, type TestEntry } from './parse-test-entry.js';
import { renderTestArgs } from './render-test-args.js';
import { captureTestState } from './test-render-state.js';
import { genericTestUniqueId, synthesizeTestName } from './test-names.js';
import type { TestNode } from '../compile/test-node.js';

export interface CaptureTestsInput {
  readonly project: Project;
  readonly jinja: JinjaEnvironment;
  readonly vars: Readonly<Record<string, unknown>>;
  /** The vars an installed package's tests see (its own, under the root project's), by package. */
  readonly packageVars?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly models: ReadonlyMap<string, ModelNode>;
  readonly seeds: ReadonlyMap<string, SeedNode>;
  readonly sources: ReadonlyMap<string, SourceNode>;
}

/** What a generic test is declared on. */
interface Target {
  readonly node: ModelNode | SeedNode | SourceNode;
  /** The name used in test names: the model/seed name, or `<source>_<table>`. */
  readonly testTarget: string;
  readonly isSource: boolean;
  readonly tests: readonly unknown[];
  readonly columns: readonly ColumnProperties[];
  readonly location: SourceLocation;
}

const IDENTIFIER = /^[A-Za-z_]\w*$/;

/** Folders between the model/seed path holding `file` and the file. */
function ymlFolders(project: Project, file: string): string[] {
  // A package's file: its folders below the package's own resource paths (models, seeds, tests).
  const pkg = project.packages?.find((p) => file.startsWith(`${p.path}/`));
  const parts = (pkg ? file.slice(pkg.path.length + 1) : file).split('/').slice(0, -1);
  const roots = pkg ? ['models', 'seeds', 'tests'] : [...project.paths.models, ...project.paths.seeds, ...project.paths.tests];
  for (const root of roots) {
    const rootParts = root.replace(/\/+$/, '').split('/');
    if (rootParts.every((p, i) => parts[i] === p)) return parts.slice(rootParts.length);
  }
  return parts.slice(1);
}

/**
 * Build the test nodes of a project: generic tests declared under
 * `data_tests:` / `tests:` of models, seeds, sources and their columns, and
 * singular tests (tests/*.sql). Each test depends on what it is declared on
 * plus whatever its arguments or SQL ref() / source().
 */
export function captureTests(input: CaptureTestsInput, errors: ProjectError[]): Map<string, TestNode> {
  const { project, jinja, models, seeds, sources } = input;
  const tests = new Map<string, TestNode>();
  const globals = (jinja.env as unknown as { globals: Record<string, unknown> }).globals;
  const testMacros = Object.keys(globals).filter((k) => k.startsWith('test_') && typeof globals[k] === 'function').map((k) => k.slice(5));
  const sourceAlias = (s: string, t: string) => sources.get(`${s}.${t}`)?.alias ?? t;

  const resolveDeps = (test: Omit<TestNode, 'dependsOn'>, own: string | undefined, location: SourceLocation): string[] | undefined => {
    const deps = own ? [own] : [];
    for (const ref of test.refs) {
      const target = models.get(refModelKey(models, ref)) ?? seeds.get(ref);
      if (!target) {
        errors.push(new ProjectError(`test '${test.name}' depends on a node named '${ref}' which was not found.${didYouMeanSuffix(ref, [...models.keys(), ...seeds.keys()])}`, { location }));
        return undefined;
      }
      if (!deps.includes(target.uniqueId)) deps.push(target.uniqueId);
    }
    for (const [s, t] of test.sources) {
      const source = sources.get(`${s}.${t}`);
      if (!source) {
        errors.push(new ProjectError(`test '${test.name}' depends on a source named '${s}.${t}' which was not found`, { location }));
        return undefined;
      }
      if (!deps.includes(source.uniqueId)) deps.push(source.uniqueId);
    }
    return deps;
  };

  const addGeneric = (target: Target, entry: TestEntry, columnOfEntry: string | undefined): void => {
    const { location } = target;
    // A model-level test may name its column among its arguments.
    const { column_name: argColumn, ...args } = entry.args;
    const column = columnOfEntry ?? (argColumn === undefined ? undefined : String(argColumn));
    entry = { ...entry, args };
    const pkg = target.node.fqn[0] ?? project.name;
    // `dbt_utils.expression_is_true` is the package's test macro; an unqualified name is looked up as the node's package sees it.
    const macro = entry.namespace !== undefined
      ? (jinja.namespaces.has(entry.namespace) ? (jinja.namespaces.fromPackage(entry.namespace, `test_${entry.testName}`) ? `${entry.namespace}.test_${entry.testName}` : undefined) : undefined)
      : jinja.namespaces.resolve(`test_${entry.testName}`, pkg) !== undefined
        ? (jinja.namespaces.fromPackage(pkg, `test_${entry.testName}`) && pkg !== project.name ? `${pkg}.test_${entry.testName}` : `test_${entry.testName}`)
        : undefined;
    if (macro === undefined) {
      if (entry.namespace !== undefined && !jinja.namespaces.has(entry.namespace)) {
        errors.push(new ProjectError(`unknown test '${entry.namespace}.${entry.testName}' on ${target.testTarget}: there is no package '${entry.namespace}'`, { location, hint: `add it to packages.yml and run mini-dbt deps (installed: ${jinja.namespaces.packageNames().filter((n) => n !== '').join(', ')})` }));
        return;
      }
      errors.push(new ProjectError(`unknown test '${entry.namespace ? `${entry.namespace}.` : ''}${entry.testName}' on ${target.testTarget}${column ? `.${column}` : ''}: there is no built-in test and no {% test ${entry.testName}(model, ...) %} macro of that name.${didYouMeanSuffix(entry.testName, testMacros)}`, { location }));
      return;
    }
    const badArg = Object.keys(entry.args).find((k) => !IDENTIFIER.test(k) || k === 'model' || k === 'column_name');
    if (badArg) {
      errors.push(new ProjectError(`test '${entry.testName}' on ${target.testTarget}: invalid argument name '${badArg}'`, { location }));
      return;
    }
    const nameArgs = column === undefined ? entry.args : { column_name: column, ...entry.args };
    const testType = `${target.isSource ? 'source_' : ''}${entry.namespace ? `${entry.namespace}_` : ''}${entry.testName}`;
    const synthesized = synthesizeTestName(testType, target.testTarget, nameArgs);
    const name = entry.customName ?? synthesized.name;
    const folders = ymlFolders(project, location.file);
    const config = mergeConfigs(...testConfigLayers(project, pkg, folders), entry.config);
    if (config.enabled === false) return;
    const call = [
      'model=__model',
      ...(column === undefined ? [] : ['column_name=__column_name']),
      ...Object.keys(entry.args).map((k) => `${k}=__arg_${k}`),
    ];
    const captured = { refs: [] as string[], sources: [] as [string, string][], config: {} };
    try {
      renderTestArgs(jinja, location.file, entry.args, captureTestState(name, location.file, config, input.packageVars?.get(pkg) ?? input.vars, project.databasePath, project.target, sourceAlias, captured, pkg === project.name ? undefined : pkg));
    } catch (err) {
      errors.push(err instanceof ProjectError ? err : new ProjectError(String(err), { location }));
      return;
    }
    const test: Omit<TestNode, 'dependsOn'> = {
      resourceType: 'test',
      uniqueId: genericTestUniqueId(pkg, name, entry.customName ?? synthesized.fullName, location.file),
      name,
      fqn: [pkg, ...folders, entry.customName ?? synthesized.fullName],
      testType: 'generic',
      testName: entry.testName,
      attachedTo: target.node.uniqueId,
      columnName: column,
      args: entry.args,
      config,
      path: location.file,
      lineOf: () => location.line,
      rawSql: `{{ ${macro}(${call.join(', ')}) }}`,
      refs: captured.refs,
      sources: captured.sources,
      description: entry.description,
    };
    const dependsOn = resolveDeps(test, target.node.uniqueId, location);
    if (!dependsOn) return;
    if (tests.has(test.uniqueId)) {
      errors.push(new ProjectError(`two tests are named '${name}' on ${target.testTarget}${column ? `.${column}` : ''}`, { location, hint: "give one of them a 'name:'" }));
      return;
    }
    tests.set(test.uniqueId, { ...test, dependsOn });
  };

  const addTargetTests = (target: Target): void => {
    const entries: [unknown, string | undefined][] = [
      ...target.tests.map((t) => [t, undefined] as [unknown, undefined]),
      ...target.columns.flatMap((c) => c.tests.map((t) => [t, c.name] as [unknown, string])),
    ];
    for (const [raw, column] of entries) {
      try {
        addGeneric(target, parseTestEntry(raw, target.location), column);
      } catch (err) {
        errors.push(err instanceof ProjectError ? err : new ProjectError(String(err), { location: target.location }));
      }
    }
  };

  for (const model of models.values()) {
    if (!model.properties) continue;
    // A version's tests are named after `<name>_v<v>`, as dbt's are.
    addTargetTests({ node: model, testTarget: model.file.version ? `${model.file.version.modelName}_v${String(model.file.version.v)}` : model.name, isSource: false, tests: model.properties.tests, columns: model.properties.columns, location: model.properties.location });
  }
  for (const seed of seeds.values()) {
    if (!seed.properties) continue;
    addTargetTests({ node: seed, testTarget: seed.name, isSource: false, tests: seed.properties.tests, columns: seed.properties.columns, location: seed.properties.location });
  }
  for (const source of sources.values()) {
    const { table } = source;
    addTargetTests({ node: source, testTarget: `${table.sourceName}_${table.tableName}`, isSource: true, tests: table.tests ?? [], columns: table.columns, location: table.location });
  }

  for (const file of project.singularTests) {
    const location = { file: file.path };
    const folders = ymlFolders(project, file.path);
    const pkg = file.package ?? project.name;
    const base = mergeConfigs(...testConfigLayers(project, pkg, folders));
    const captured = { refs: [] as string[], sources: [] as [string, string][], config: {} as Record<string, unknown> };
    try {
      jinja.render(file.path, file.rawSql, captureTestState(file.name, file.path, base, input.packageVars?.get(pkg) ?? input.vars, project.databasePath, project.target, sourceAlias, captured, pkg === project.name ? undefined : pkg));
    } catch (err) {
      errors.push(err instanceof ProjectError ? err : new ProjectError(String(err), { location }));
      continue;
    }
    const config = mergeConfigs(base, captured.config);
    if (config.enabled === false) continue;
    const test: Omit<TestNode, 'dependsOn'> = {
      resourceType: 'test',
      uniqueId: `test.${pkg}.${file.name}`,
      name: file.name,
      fqn: [pkg, ...folders, file.name],
      testType: 'singular',
      testName: file.name,
      args: {},
      config,
      path: file.path,
      rawSql: file.rawSql,
      refs: captured.refs,
      sources: captured.sources,
    };
    const dependsOn = resolveDeps(test, undefined, location);
    if (!dependsOn) continue;
    tests.set(test.uniqueId, { ...test, attachedTo: dependsOn.length === 1 ? dependsOn[0] : undefined, dependsOn });
  }
  return tests;
}

/** The project file's test config layers for a test of `pkg` (an installed package's own tree, then the root's under its name). */
function testConfigLayers(project: Project, pkg: string, folders: readonly string[]): ConfigMap[] {
  if (pkg === project.name) return folderConfigLayers(project.testFolderConfigs, project.name, folders);
  const own = project.packages?.find((p) => p.name === pkg)?.testFolderConfigs ?? {};
  return packageConfigLayers(own, project.testFolderConfigs, pkg, folders, '');
}

import { refModelKey } from '../compile/versioned-ref.js';
import { sameVersion, type VersionValue } from '../project/model-version.js';
import { ProjectError } from '../errors/project-error.js';
import { folderConfigLayers, nodeConfigLayer } from '../config/folder-config.js';
import { mergeConfigs } from '../config/merge-configs.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ephemeralCteName } from '../compile/inline-ephemerals.js';
import type { ModelNode, SeedNode, SnapshotNode, SourceNode } from '../compile/manifest.js';
import type { UnitTestInput, UnitTestNode } from '../compile/unit-test-node.js';
import type { Project } from '../project/project.js';
import type { UnitTestDefinition } from '../project/unit-test-definition.js';
import { parseGivenInput } from './given-input.js';
import { readFixtureRows } from './read-fixture-rows.js';

export interface UnitTestCaptureInput {
  readonly project: Project;
  readonly models: ReadonlyMap<string, ModelNode>;
  readonly disabled: ReadonlyMap<string, ModelNode>;
  readonly seeds: ReadonlyMap<string, SeedNode>;
  readonly sources: ReadonlyMap<string, SourceNode>;
  readonly snapshots: ReadonlyMap<string, SnapshotNode>;
}

const CALLS_IS_INCREMENTAL = /\bis_incremental\s*\(/;

/**
 * The project's unit tests resolved against its nodes, as dbt's parser does:
 * the model must exist (a test of a disabled model is disabled with it), each
 * input must name a node, rows are read (csv, fixture files, a seed's own
 * rows), a model that calls is_incremental() needs a boolean override of it,
 * and an override to true needs a `this` input. Problems go to `errors`.
 */
export function captureUnitTests(input: UnitTestCaptureInput, errors: ProjectError[]): Map<string, UnitTestNode> {
  const out = new Map<string, UnitTestNode>();
  const { project } = input;
  for (const def of project.unitTests ?? []) {
    try {
      for (const node of captureVersions(def, input)) {
      const other = out.get(node.uniqueId);
      if (other) {
        throw new ProjectError(`two unit tests of model '${def.model}' are named '${def.name}': ${other.path}:${other.line} and ${def.path}:${def.line}`, {
          location: { file: def.path, line: def.line }, hint: 'unit test names must be unique per model; rename one of them',
        });
      }
      out.set(node.uniqueId, node);
      }
    } catch (err) {
      if (!(err instanceof ProjectError)) throw err;
      errors.push(err);
    }
  }
  return out;
}

/**
 * A unit test of a versioned model is one test per version, as in dbt: every
 * version, or those its `versions:` includes (or does not exclude); each is
 * `unit_test.<project>.<model>.<name>_v<v>`. `versions:` on a test of an
 * unversioned model, or naming no version there is, is an error (E209).
 */
function captureVersions(def: UnitTestDefinition, input: UnitTestCaptureInput): UnitTestNode[] {
  const versions = [...input.models.values()].filter((m) => m.file.version?.modelName === def.model);
  const narrowed = def.versions !== undefined && ((def.versions.include?.length ?? 0) > 0 || (def.versions.exclude?.length ?? 0) > 0);
  if (versions.length === 0) {
    if (narrowed && input.models.has(def.model)) {
      throw new ProjectError(`Unit test '${def.name}' should not have a versions include or exclude when referencing non-versioned model '${def.model}'`, { location: { file: def.path, line: def.line } });
    }
    const node = captureOne(def, input);
    return node ? [node] : [];
  }
  const has = (list: readonly VersionValue[] | undefined, v: VersionValue) => (list ?? []).some((w) => sameVersion(w, v));
  const chosen = versions.filter((m) => {
    const v = m.file.version!.v;
    if (def.versions?.exclude && def.versions.exclude.length > 0) return !has(def.versions.exclude, v);
    if (def.versions?.include && def.versions.include.length > 0) return has(def.versions.include, v);
    return true;
  });
  if (chosen.length === 0) {
    throw new ProjectError(`Unit test '${def.name}' referenced a version of '${def.model}' which was not found.`, {
      location: { file: def.path, line: def.line }, hint: `'${def.model}' has versions ${versions.map((m) => String(m.file.version!.v)).join(', ')}`,
    });
  }
  const out: UnitTestNode[] = [];
  for (const model of chosen) {
    const node = captureOne({ ...def, model: model.name }, input);
    if (!node) continue;
    const suffix = `${def.name}_v${String(model.file.version!.v)}`;
    out.push({ ...node, uniqueId: `unit_test.${input.project.name}.${def.model}.${suffix}`, fqn: [input.project.name, ...def.folders, def.model, suffix] });
  }
  return out;
}

function captureOne(def: UnitTestDefinition, input: UnitTestCaptureInput): UnitTestNode | undefined {
  const { project } = input;
  // Lines (def.line) are found only when an error needs one.
  const at = { file: def.path, get line() { return def.line; } };
  // The project file's unit_tests: tree (by folder, then the model and the test by name), below the entry's own config.
  const tree = project.unitTestFolderConfigs ?? {};
  const config = mergeConfigs(
    ...folderConfigLayers(tree, project.name, def.folders),
    nodeConfigLayer(tree, project.name, def.folders, def.model) ?? {},
    nodeConfigLayer(tree, project.name, [...def.folders, def.model], def.name) ?? {},
    def.config,
  );
  if (config.enabled === false) return undefined;
  const model = input.models.get(def.model);
  if (!model) {
    if (input.disabled.has(def.model)) return undefined; // dbt disables the tests of a disabled model
    throw new ProjectError(`Unable to find model '${project.name}.${def.model}' for unit test '${def.name}' in ${def.path}.${didYouMeanSuffix(def.model, [...input.models.keys()])}`, { location: at });
  }
  const what = `unit test '${def.name}'`;
  const macros = def.overrides.macros;
  if (CALLS_IS_INCREMENTAL.test(model.file.rawSql) && typeof macros.is_incremental !== 'boolean') {
    throw new ProjectError(`Boolean override for 'is_incremental' must be provided for unit test '${def.name}' in model '${model.name}'`, {
      location: at, hint: 'add overrides: {macros: {is_incremental: true}} to test the incremental run (with a `this` input), or false for a full build',
    });
  }
  if (macros.is_incremental === true && !def.given.some((g) => g.input === 'this')) {
    throw new ProjectError(`Unit test '${def.name}' for incremental model '${model.name}' must have a 'this' input`, {
      location: at, hint: 'add - input: this with the rows the table holds before the run',
    });
  }
  const given: UnitTestInput[] = def.given.map((g, i) => {
    const where = { file: def.path, get line() { return g.line ?? def.line; }, what: `${what}: given input ${g.input}` };
    const parsed = parseGivenInput(g.input!, where);
    let resolved: { nodeId: string; name: string; cte: string; schema: string; alias: string; ephemeral: boolean; seedCsv?: string };
    if (parsed.kind === 'this') {
      resolved = { nodeId: model.uniqueId, name: model.name, cte: ephemeralCteName(model.alias), schema: model.schema, alias: model.alias, ephemeral: false };
    } else if (parsed.kind === 'ref') {
      const target = input.models.get(refModelKey(input.models, parsed.name)) ?? input.seeds.get(parsed.name) ?? input.snapshots.get(parsed.name);
      if (!target || (parsed.package !== undefined && parsed.package !== project.name)) {
        const names = [...input.models.keys(), ...input.seeds.keys(), ...input.snapshots.keys()];
        throw new ProjectError(`Unit test '${def.name}' had an input (${g.input}) which was not found in the manifest.${didYouMeanSuffix(parsed.name, names)}`, { location: where });
      }
      resolved = {
        nodeId: target.uniqueId,
        name: target.name,
        cte: ephemeralCteName(target.alias),
        schema: target.schema,
        alias: target.alias,
        ephemeral: target.resourceType === 'model' && target.settings.materialized === 'ephemeral',
        ...(target.resourceType === 'seed' ? { seedCsv: target.file.absPath } : {}),
      };
    } else {
      const source = input.sources.get(`${parsed.source}.${parsed.table}`);
      if (!source) {
        throw new ProjectError(`Unit test '${def.name}' had an input (${g.input}) which was not found in the manifest.${didYouMeanSuffix(`${parsed.source}.${parsed.table}`, [...input.sources.keys()])}`, { location: where });
      }
      resolved = { nodeId: source.uniqueId, name: source.name, cte: ephemeralCteName(`${parsed.source}__${parsed.table}`), schema: source.schema, alias: source.alias, ephemeral: false };
    }
    if (resolved.ephemeral && g.format !== 'sql') {
      throw new ProjectError(`${what}: input ${g.input} is an ephemeral model, so its rows must be given with format: sql`, {
        location: where, hint: 'an ephemeral model has no table to read column types from; write format: sql and rows: "select 1 as id, ..."',
      });
    }
    if (def.given.findIndex((other) => other.input === g.input) !== i) {
      throw new ProjectError(`${what}: input ${g.input} is given twice`, { location: where });
    }
    const rows = readFixtureRows(g, project.fixtures ?? new Map(), where, resolved.seedCsv);
    return { ...rows, input: g.input!, kind: parsed.kind, name: resolved.name, nodeId: resolved.nodeId, cte: resolved.cte, relation: { schema: resolved.schema, alias: resolved.alias }, ephemeral: resolved.ephemeral };
  });
  const expect = readFixtureRows(def.expect, project.fixtures ?? new Map(), { file: def.path, get line() { return def.expect.line ?? def.line; }, what: `${what}: expect` });
  const tags = tagList(config.tags);
  return {
    resourceType: 'unit_test',
    uniqueId: `unit_test.${project.name}.${model.name}.${def.name}`,
    name: def.name,
    model: model.name,
    modelId: model.uniqueId,
    fqn: [project.name, ...def.folders, model.name, def.name],
    path: def.path,
    get line() {
      return def.line;
    },
    ...(def.description !== undefined ? { description: def.description } : {}),
    given,
    expect,
    overrides: def.overrides,
    config: { tags, meta: config.meta ?? {}, enabled: true },
    tags,
    dependsOn: [model.uniqueId],
  };
}

function tagList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === 'string');
  return [];
}

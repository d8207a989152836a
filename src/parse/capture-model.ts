import { folderConfigLayers, nodeConfigLayer, packageConfigLayers } from '../config/folder-config.js';
import { mergeConfigs, normalizeConfigKey } from '../config/merge-configs.js';
import type { JinjaEnvironment } from '../compile/jinja-environment.js';
import { Relation } from '../compile/relation.js';
import type { RenderState } from '../compile/render-state.js';
import { PARSE_CONTEXT } from '../invocation/run-context.js';
import type { ModelFile, Project } from '../project/project.js';
import type { Target } from '../project/target.js';
import { versionAlias } from '../project/model-version.js';

/** What pass 1 captures from one model: refs and sources in call order, and its config() calls merged. */
export interface ModelCapture {
  readonly refs: string[];
  readonly sources: [string, string][];
  readonly config: Record<string, unknown>;
  /** The vars its render read, by name (set or not): the capture holds only while their values do. */
  readonly vars?: readonly string[];
}

/** What rendering one model in pass 1 needs from the project being captured. */
export interface CaptureContext {
  readonly jinja: () => JinjaEnvironment;
  readonly vars: Readonly<Record<string, unknown>>;
  /** The vars of each installed package's nodes (resolve-vars.ts), by package. */
  readonly packageVars?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** A source table's relation name (its identifier), or the table name when the source is unknown. */
  readonly sourceAlias: (sourceName: string, tableName: string) => string;
  readonly databasePath: string;
  readonly target: Target;
  /** The root project's name (`model.package_name`). */
  readonly projectName?: string;
  /** false: every model is rendered in pass 1, none captured statically (the differential tests compare both). */
  readonly staticCapture?: boolean;
}

/** A model's config before rendering: its folder configs (merged once per folder in `folders`), then its yml. */
export function baseModelConfig(project: Project, file: ModelFile, folders: Map<string, Record<string, unknown>>): Record<string, unknown> {
  if (file.package !== undefined) {
    const pkg = project.packages?.find((p) => p.name === file.package);
    const layers = packageConfigLayers(pkg?.modelFolderConfigs ?? {}, project.modelFolderConfigs, file.package, file.folders, file.version?.modelName ?? file.name);
    return mergeConfigs(...layers, project.modelProperties.get(file.name)?.config ?? {});
  }
  const folderKey = file.folders.join('/');
  let folder = folders.get(folderKey);
  if (!folder) {
    folder = mergeConfigs(...folderConfigLayers(project.modelFolderConfigs, project.name, file.folders));
    folders.set(folderKey, folder);
  }
  // A version's project-file config is its model's (fqn <project>.<folders>.<name>.v<v>, as in dbt), then its own under v<v>.
  const own = nodeConfigLayer(project.modelFolderConfigs, project.name, file.folders, file.version?.modelName ?? file.name);
  const ownVersion = file.version ? nodeConfigLayer(project.modelFolderConfigs, project.name, [...file.folders, file.version.modelName], `v${String(file.version.v)}`) : undefined;
  return mergeConfigs(folder, own ?? {}, ownVersion ?? {}, project.modelProperties.get(file.name)?.config ?? {});
}

/**
 * Pass 1 for one model: render it without a warehouse, recording its ref()
 * and source() calls, its config() calls and the vars it reads. An
 * incremental model is rendered with is_incremental() both false and true,
 * so a ref used on one branch only is still a dependency; `-- depends_on:`
 * comments add refs. Throws what the render throws. A root-project model
 * without hooks whose template the environment can capture statically
 * (static-capture.ts: the same record, proven to raise nothing) is not
 * rendered at all.
 */
export function captureModel(file: ModelFile, base: Readonly<Record<string, unknown>>, context: CaptureContext): ModelCapture {
  const record = (file.package === undefined && context.staticCapture !== false && !declaresHooks(base) ? staticCapture(file, base, context) : undefined) ?? renderedCapture(file, base, context);
  for (const match of file.rawSql.matchAll(/--\s*depends_on:\s*\{\{\s*ref\(\s*['"]([^'"]+)['"]\s*\)\s*\}\}/g)) {
    if (!record.refs.includes(match[1]!)) record.refs.push(match[1]!);
  }
  return record;
}

type CaptureRecord = { refs: string[]; sources: [string, string][]; config: Record<string, unknown>; vars: string[] };

/** A fresh record and the ref(), source() and var() of pass 1 that fill it. */
function recorder(file: ModelFile, context: CaptureContext) {
  const vars = (file.package !== undefined ? context.packageVars?.get(file.package) : undefined) ?? context.vars;
  const record: CaptureRecord = { refs: [], sources: [], config: {}, vars: [] };
  return {
    record,
    vars,
    readVar: (name: string) => {
      if (!record.vars.includes(name)) record.vars.push(name);
      return { found: Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== undefined, value: vars[name] };
    },
    ref: (name: string) => {
      if (!record.refs.includes(name)) record.refs.push(name);
      return new Relation(name);
    },
    source: (s: string, t: string) => {
      if (!record.sources.some(([a, b]) => a === s && b === t)) record.sources.push([s, t]);
      return new Relation(context.sourceAlias(s, t));
    },
  };
}

/** The model's own relation (`this`) in pass 1. */
const selfOf = (file: ModelFile, base: Readonly<Record<string, unknown>>) => new Relation(typeof base.alias === 'string' ? base.alias : file.version ? versionAlias(file.version) : file.name);

/**
 * Pass 1 without rendering, for a template the environment can capture
 * statically (static-capture.ts: the same refs, sources, config and vars as
 * the render, proven to raise nothing); undefined: render it.
 */
function staticCapture(file: ModelFile, base: Readonly<Record<string, unknown>>, context: CaptureContext): CaptureRecord | undefined {
  const { record, readVar, ref, source } = recorder(file, context);
  const jinja = context.jinja();
  const self = selfOf(file, base);
  const capture = (incremental: boolean) =>
    jinja.captureStatically(file.path, file.rawSql, { incremental, self, ref, source, readVar, config: (values) => Object.assign(record.config, values) });
  if (!capture(false)) return undefined;
  if (mergedValue([base, record.config], 'materialized') === 'incremental' && !capture(true)) return undefined;
  return record;
}

/** Pass 1 by rendering the model (see captureModel). */
function renderedCapture(file: ModelFile, base: Readonly<Record<string, unknown>>, context: CaptureContext): CaptureRecord {
  const { record, vars, readVar, ref, source } = recorder(file, context);
  const render = (incremental: boolean): void => {
    const state: RenderState = {
      modelName: file.name,
      modelPath: file.path,
      ...(file.version ? { modelVersion: file.version } : {}),
      packageName: file.package,
      execute: false,
      vars: readVar,
      varNames: () => Object.keys(vars),
      ref,
      source,
      self: selfOf(file, base),
      isIncremental: () => incremental,
      config: base as Record<string, unknown>,
      captured: { refs: [], sources: [], config: record.config },
      run: PARSE_CONTEXT,
      target: context.target,
      projectName: context.projectName,
      databasePath: context.databasePath,
      log: () => undefined,
    };
    context.jinja().render(file.path, file.rawSql, state);
    // dbt captures ref() and source() in hooks too: a hook reading another model makes it a dependency.
    // A hook that fails to render here renders again when it runs, and says so there.
    const hooks = declaresHooks(base) || declaresHooks(record.config) ? hookTexts(mergeConfigs(base, record.config)) : [];
    for (const [i, hook] of hooks.entries()) {
      if (!/\b(ref|source)\s*\(/.test(hook)) continue;
      try {
        context.jinja().render(`${file.path}#hook[${i}]`, hook, state);
      } catch {
        // reported at run time
      }
    }
  };
  render(false);
  if (mergedValue([base, record.config], 'materialized') === 'incremental') render(true);
  return record;
}

/** Whether a config (merged or as config() was given it) sets a pre- or post-hook: only then are its hooks merged and read. */
function declaresHooks(config: Readonly<Record<string, unknown>>): boolean {
  for (const key in config) {
    if (!Object.prototype.hasOwnProperty.call(config, key)) continue;
    const name = normalizeConfigKey(key);
    if (name === 'pre_hook' || name === 'post_hook') return true;
  }
  return false;
}

/** A config key that is replaced, not merged (as materialized), in the merge of `layers`: the last layer's that sets it (mergeConfigs' answer, without the merge). */
function mergedValue(layers: readonly Readonly<Record<string, unknown>>[], name: string): unknown {
  let value: unknown;
  for (const layer of layers) {
    for (const key in layer) {
      if (Object.prototype.hasOwnProperty.call(layer, key) && normalizeConfigKey(key) === name) value = layer[key];
    }
  }
  return value;
}

/** The SQL texts of a config's pre_hook and post_hook (a string, `{sql}`, or a list of them). */
function hookTexts(config: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const key of ['pre_hook', 'post_hook', 'pre-hook', 'post-hook']) {
    const value = config[key];
    for (const h of Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]) {
      const sql = typeof h === 'string' ? h : typeof h === 'object' && h !== null ? (h as { sql?: unknown }).sql : undefined;
      if (typeof sql === 'string') out.push(sql);
    }
  }
  return out;
}

/** Whether two captures found the same refs, sources and config, reading the same vars (their values may differ). */
export function sameCapture(a: ModelCapture, b: ModelCapture): boolean {
  const read = (c: ModelCapture) => [...(c.vars ?? [])].sort();
  return JSON.stringify([a.refs, a.sources, a.config, read(a)]) === JSON.stringify([b.refs, b.sources, b.config, read(b)]);
}

import { versionKey } from '../project/model-version.js';
import { engine } from '../engine/current-engine.js';
import { ProjectError } from '../errors/project-error.js';
import { batchId } from '../config/microbatch-time.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { internals, isSafeString } from './jinja/nunjucks-internals.js';
import { pythonTypeName } from './jinja/python-type-name.js';
import { pythonStr } from './jinja/python-repr.js';
import { splitKeywordArgs } from './keyword-args.js';
import type { RenderState } from './render-state.js';

/** A function exposed to templates; failures are kept on the state for a precise message. */
function guarded<T>(state: RenderState, fn: (...args: unknown[]) => T): (...args: unknown[]) => T {
  return (...args: unknown[]) => {
    try {
      return fn(...args);
    } catch (err) {
      if (err instanceof Error && !state.failure) state.failure = err;
      throw err;
    }
  };
}

const METADATA_ENV_PREFIX = 'DBT_ENV_CUSTOM_ENV_';

/**
 * dbt's diff_of_two_dicts(dict_a, dict_b): for dicts of lists of names, what dict_a has that dict_b has
 * not (keys and values compared ignoring case; a key missing from dict_b keeps all its values).
 */
function diffOfTwoDicts(a: unknown, b: unknown): Record<string, unknown[]> {
  const dict = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : {});
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const lowered = new Map(Object.entries(dict(b)).map(([k, v]) => [k.toLowerCase(), new Set(list(v).map((x) => String(x).toLowerCase()))]));
  const out: Record<string, unknown[]> = {};
  for (const [key, values] of Object.entries(dict(a))) {
    const other = lowered.get(key.toLowerCase());
    if (other === undefined) out[key] = list(values);
    else {
      const missing = list(values).filter((x) => !other.has(String(x).toLowerCase()));
      if (missing.length > 0) out[key] = missing;
    }
  }
  return out;
}

/** dbt_metadata_envs: the DBT_ENV_CUSTOM_ENV_* variables, without the prefix. */
function metadataEnvs(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith(METADATA_ENV_PREFIX) && name.length > METADATA_ENV_PREFIX.length && value !== undefined) out[name.slice(METADATA_ENV_PREFIX.length)] = value;
  }
  return out;
}

function makeVar(state: RenderState) {
  return guarded(state, (...args: unknown[]) => {
    const { positional, keywords } = splitKeywordArgs(args);
    if (positional.length === 0 && !('var_name' in keywords)) {
      throw Object.assign(new ProjectError("var() missing 1 required positional argument: 'var_name'"), { needle: 'var(' });
    }
    const name = String(positional[0] ?? keywords.var_name);
    const hasDefault = positional.length > 1 || 'default' in keywords;
    const fallback = positional.length > 1 ? positional[1] : keywords.default;
    const found = state.vars(name);
    if (found.found) return found.value;
    if (hasDefault) return fallback;
    if (!state.execute) return undefined;
    throw Object.assign(
      new ProjectError(`Required var '${name}' not found for model '${state.modelName}' (${state.modelPath}).${didYouMeanSuffix(name, state.varNames())}`, {
        hint: `pass it with --vars '{${name}: ...}', set it under vars: in the project file, or give var() a default`,
      }),
      { needle: name },
    );
  });
}

/** A macro's output given to config() is its text, as in dbt (a nunjucks SafeString is not a plain value). */
function plainValue(value: unknown): unknown {
  if (isSafeString(value)) return String(value);
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return plainValues(value as Record<string, unknown>);
  return value;
}

/** A config() call's values as config keeps them: safe strings as text, lists and plain dicts copied (as Object.fromEntries would, a key `__proto__` included). */
export function plainValues(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(values)) {
    const value = plainValue(values[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}

function makeConfig(state: RenderState) {
  const config = guarded(state, (...args: unknown[]) => {
    const { positional, keywords } = splitKeywordArgs(args);
    const kwargs = Object.keys(keywords).length;
    // dbt's inline config: keyword arguments, or exactly one dict.
    if (positional.length > 1 || (positional.length === 1 && kwargs > 0) || (positional.length === 0 && kwargs === 0)) {
      throw Object.assign(new ProjectError(`Invalid inline model config: config() takes keyword arguments or one dict (${positional.length} positional and ${kwargs} keyword arguments given)`), { needle: 'config(' });
    }
    if (positional.length === 1 && (typeof positional[0] !== 'object' || positional[0] === null || Array.isArray(positional[0]))) {
      throw Object.assign(new ProjectError(`Invalid inline model config: config() takes keyword arguments or one dict, got ${pythonTypeName(positional[0])} ${JSON.stringify(positional[0]) ?? String(positional[0])}`), { needle: 'config(' });
    }
    const dict = (positional[0] ?? {}) as Record<string, unknown>;
    // `pre-hook` and `pre_hook` are one config: dbt refuses a config() setting both.
    for (const hook of ['pre', 'post']) {
      const given = { ...dict, ...keywords };
      if (`${hook}_hook` in given && `${hook}-hook` in given) {
        throw Object.assign(new ProjectError(`Invalid inline model config: ${hook}_hook and ${hook}-hook are the same config and cannot both be set; keep one`), { needle: 'config(' });
      }
    }
    Object.assign(state.captured.config, plainValues(dict), plainValues(keywords));
    return '';
  }) as ((...args: unknown[]) => string) & { get: unknown; require: unknown; meta_get: unknown; meta_require: unknown; set: unknown };
  const lookup = (key: string): unknown => state.config[key] ?? state.captured.config[key];
  const meta = (): Record<string, unknown> => {
    const value = lookup('meta');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
  };
  const inMeta = (key: string): boolean => Object.prototype.hasOwnProperty.call(meta(), key);
  // config.get(name, default=None): positional or keyword arguments, as dbt's.
  config.get = guarded(state, (...args: unknown[]) => {
    const { positional, keywords } = splitKeywordArgs(args);
    const key = String(positional[0] ?? keywords.name);
    const fallback = positional.length > 1 ? positional[1] : keywords.default;
    const value = lookup(key);
    if (value !== undefined && value !== null) return value;
    // dbt 1.10: a custom config lives under meta, and config.get does not read it: said once per render, on the run's.
    if (state.execute && inMeta(key)) {
      state.log(`Warning: config.get('${key}') in model '${state.modelName}' returns its default: '${key}' is set only under meta, which config.get does not read; use config.meta_get('${key}')`);
    }
    return fallback;
  });
  config.require = guarded(state, (key: unknown) => {
    const value = lookup(String(key));
    // While parsing (execute false) dbt's config.require returns an empty string: a missing config fails the model's run, not the parse.
    if (value === undefined && !state.execute) return '';
    if (value === undefined) {
      const hint = inMeta(String(key)) ? ` (it is set under meta: read it with config.meta_require('${String(key)}'))` : '';
      throw new ProjectError(`model '${state.modelName}' requires config '${String(key)}'${hint}`);
    }
    return value;
  });
  // dbt's config.set(name, value): config(name=value) under another spelling (set_sql_header's `{% call %}` block uses it).
  config.set = guarded(state, (name: unknown, value: unknown) => {
    Object.assign(state.captured.config, plainValues({ [String(name)]: value }));
    return '';
  });
  // dbt 1.10.18's readers of custom configs under meta.
  config.meta_get = guarded(state, (...args: unknown[]) => {
    const { positional, keywords } = splitKeywordArgs(args);
    const key = String(positional[0] ?? keywords.name);
    return inMeta(key) ? meta()[key] : positional.length > 1 ? positional[1] : keywords.default ?? null;
  });
  config.meta_require = guarded(state, (key: unknown) => {
    if (!inMeta(String(key))) {
      if (!state.execute) return '';
      throw new ProjectError(`model '${state.modelName}' requires meta config '${String(key)}'`);
    }
    return meta()[String(key)];
  });
  return config;
}

function makeEnvVar(state: RenderState) {
  return guarded(state, (...args: unknown[]) => {
    const name = String(args[0]);
    const value = state.envVars && Object.prototype.hasOwnProperty.call(state.envVars, name) ? state.envVars[name] : process.env[name];
    if (value !== undefined) return value;
    if (args.length > 1) return args[1] === undefined || args[1] === null ? args[1] : String(args[1]);
    throw Object.assign(new ProjectError(`Env var required but not provided: '${name}' (model '${state.modelName}')`), { needle: name });
  });
}

/** The dbt Jinja context for one render, as a name -> value map. */
export function contextFunctions(state: RenderState): Record<string, unknown> {
  const ref = guarded(state, (...args: unknown[]) => {
    const { positional, keywords } = splitKeywordArgs(args);
    if (positional.length === 0) throw Object.assign(new ProjectError('ref() takes at least one argument (0 given)'), { needle: 'ref(' });
    if (positional.length > 2) throw new ProjectError(`ref() takes at most two arguments (${positional.length} given)`);
    const [name, pkg] = positional.length === 2 ? [positional[1], positional[0]] : [positional[0], undefined];
    if (typeof name !== 'string' && !(name instanceof internals.runtime.SafeString)) throw Object.assign(new ProjectError(`The name argument to ref() must be a string, got ${pythonTypeName(name)}`), { needle: 'ref(' });
    // dbt's ref('m', v=1) / version=1: the version's key, `m.v1` (versioned-ref.ts resolves it).
    const version = keywords.v ?? keywords.version;
    const key = version === undefined || version === null ? String(name) : versionKey(String(name), String(version));
    return pkg === undefined ? state.ref(key) : state.ref(key, String(pkg));
  });
  const source = guarded(state, (...args: unknown[]) => {
    const { positional } = splitKeywordArgs(args);
    if (positional.length !== 2) throw Object.assign(new ProjectError(`source() takes exactly two arguments (${positional.length} given)`), { needle: 'source(' });
    return state.source(String(positional[0]), String(positional[1]));
  });
  const config = makeConfig(state);
  return {
    ref,
    source,
    var: makeVar(state),
    config,
    // dbt's builtins: a project macro named ref, source or config replaces it, and can still reach the original.
    builtins: { ref, source, config },
    is_incremental: guarded(state, () => state.isIncremental()),
    // dbt's should_full_refresh(): the model's full_refresh config, else --full-refresh; false in a batch that runs incrementally.
    should_full_refresh: guarded(state, () => {
      if (state.batch && state.isIncremental()) return false;
      const configured = state.config.full_refresh ?? state.captured.config.full_refresh;
      return configured === undefined || configured === null ? state.run.fullRefresh : Boolean(configured);
    }),
    env_var: makeEnvVar(state),
    this: state.self,
    // dbt's `schema`: the schema the node is built in (the target's schema for hooks and run-operation).
    schema: (state.self as RenderState['self'] | undefined)?.schema,
    execute: state.execute,
    invocation_id: state.run.invocationId,
    run_started_at: state.run.startedAt,
    // dbt-sqlite's target: its profile output's keys (database is the main schema's name, as dbt-sqlite reports it).
    // dbt-postgres's: its connection keys but the password.
    target: state.target.postgres
      ? {
        name: state.target.name,
        target_name: state.target.name,
        profile_name: state.target.profileName ?? null,
        type: engine.name,
        schema: state.target.schema,
        database: state.target.postgres.dbname,
        dbname: state.target.postgres.dbname,
        host: state.target.postgres.host,
        port: state.target.postgres.port,
        user: state.target.postgres.user,
        threads: state.target.threads,
      }
      : {
        name: state.target.name,
        target_name: state.target.name,
        profile_name: state.target.profileName ?? null,
        type: engine.name,
        schema: state.target.schema,
        database: 'main',
        path: state.databasePath,
        threads: state.target.threads,
        schemas_and_paths: { main: state.databasePath, ...state.target.schemaPaths },
        schema_directory: state.target.schemaDirectory ?? null,
      },
    model: {
      name: state.modelVersion?.modelName ?? state.modelName,
      version: state.modelVersion?.v ?? null,
      latest_version: state.modelVersion?.latest ?? null,
      // The node's package (dbt_utils' messages say `{{ model.package_name }}.{{ model.name }}`).
      package_name: state.packageName ?? state.projectName ?? null,
      original_file_path: state.modelPath,
      config: state.config,
      // dbt's batch id (`20240917`); outside a batch None, so `model.batch.id` renders empty.
      batch: state.batch ? { id: batchId(state.batch.label), event_time_start: state.batch.start, event_time_end: state.batch.end } : null,
    },
    // Hooks that run outside the publish transaction, as in dbt.
    before_begin: (sql: unknown) => ({ sql: String(sql), transaction: false }),
    after_commit: (sql: unknown) => ({ sql: String(sql), transaction: false }),
    // For strategy macros: "a", "b" from a list of column names.
    get_quoted_csv: (names: unknown) => (Array.isArray(names) ? names : [names]).map((n) => `"${String(n).replace(/"/g, '""')}"`).join(', '),
    flags: { FULL_REFRESH: state.run.fullRefresh, WHICH: state.run.command ?? 'run', EMPTY: state.run.empty === true, WARN_ERROR: state.run.warnError, STORE_FAILURES: state.run.storeFailures },
    // dbt's invocation_args_dict: the flags this invocation was given (the ones mini-dbt knows of), by dbt's names.
    get invocation_args_dict() {
      return {
        which: state.run.command ?? 'run',
        full_refresh: state.run.fullRefresh,
        warn_error: state.run.warnError,
        store_failures: state.run.storeFailures,
        empty: state.run.empty === true,
        fail_fast: state.run.failFast === true,
      };
    },
    // dbt's metadata variables: each DBT_ENV_CUSTOM_ENV_<NAME> of the environment, as NAME; read when a template asks (not on every render).
    get dbt_metadata_envs() {
      return metadataEnvs();
    },
    // dbt's graph: the project's nodes and sources on the run's renders; empty while parsing, as in dbt.
    get graph() {
      return state.execute && state.graph ? state.graph() : { nodes: {}, sources: {}, exposures: {}, metrics: {}, groups: {}, semantic_models: {}, saved_queries: {} };
    },
    // dbt's project_name: the root project's name.
    project_name: state.projectName ?? '',
    // dbt's selected_resources: the unique ids this invocation selected (empty outside a run, as in run-operation).
    get selected_resources() {
      return [...(state.run.selectedResources ?? [])];
    },
    diff_of_two_dicts: diffOfTwoDicts,
    // dbt's print(): the text as it is, on the run's renders (not while parsing, where mini-dbt renders some models twice).
    print: (message: unknown) => {
      if (state.execute) state.print?.(pythonStr(message));
      return '';
    },
    log: (message: unknown, info?: unknown) => {
      if (!state.execute) return '';
      // str() of the message, as Python's: a dict or list prints as Python writes it.
      const text = pythonStr(message);
      if (info === true || (typeof info === 'object' && info !== null && (info as { info?: unknown }).info === true)) state.log(text);
      else state.debug?.(text);
      return '';
    },
    exceptions: {
      raise_compiler_error: guarded(state, (...args: unknown[]) => {
        const { positional, keywords } = splitKeywordArgs(args);
        if (positional.length === 0 && !('msg' in keywords)) {
          throw Object.assign(new ProjectError("raise_compiler_error() missing 1 required positional argument: 'msg'"), { needle: 'raise_compiler_error(' });
        }
        const message = positional.length > 0 ? positional[0] : keywords.msg;
        throw new ProjectError(`Compilation Error in model ${state.modelName} (${state.modelPath}): ${message === undefined || message === null ? 'None' : String(message)}`);
      }),
      warn: (message: unknown) => {
        state.log(`Warning: ${String(message)}`);
        return '';
      },
    },
  };
}

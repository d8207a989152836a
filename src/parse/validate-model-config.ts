import { MATERIALIZATIONS, effectiveStrategy } from '../config/model-config.js';
import { ProjectError } from '../errors/project-error.js';
import { grantsConfigProblem } from '../config/grants-config.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { ModelNode } from '../compile/manifest.js';
import { findLine } from '../compile/find-line.js';
import { isBuiltinStrategy, strategyNames, strategyRules } from '../materialize/incremental/strategy-registry.js';

/**
 * Strategy names a project defines through get_incremental_<name>_sql macros
 * (the built-in ones are the registry's: src/materialize/incremental/strategy-registry.ts).
 */
export function customStrategyNames(macroNames: readonly string[]): string[] {
  return macroNames.flatMap((m) => {
    const match = /^get_incremental_(.+)_sql$/.exec(m);
    return match && !isBuiltinStrategy(match[1]!) ? [match[1]!] : [];
  });
}

const isStringList = (v: unknown) => typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
const given = (v: unknown) => v !== undefined && v !== null;

/**
 * An incremental model's incremental_strategy that names neither a built-in
 * strategy nor a project's get_incremental_<name>_sql macro, or undefined.
 * Not a load error: as in dbt (its adapter resolves the strategy macro when
 * the model's materialization runs, DbtRuntimeError "The incremental strategy
 * 'x' is not valid for this adapter" / "could not find an incremental strategy
 * macro"), the model errors when it runs (planNode throws this), its
 * descendants are skipped and the rest of the project runs.
 */
export function unknownStrategyProblem(node: Pick<ModelNode, 'name' | 'config' | 'file'>, customStrategies: readonly string[] = []): ProjectError | undefined {
  const { config, file } = node;
  const strategy = config.incremental_strategy;
  if (String(config.materialized) !== 'incremental' || strategy === undefined || strategy === null || strategy === 'default') return undefined;
  const valid = [...strategyNames(), ...customStrategies];
  if (typeof strategy === 'string' && valid.includes(strategy)) return undefined;
  const known = isBuiltinStrategy(String(strategy));
  return new ProjectError(
    `model '${node.name}' has ${known ? 'unsupported' : 'unknown'} incremental_strategy '${String(strategy)}'; valid: ${valid.join(', ')}.${didYouMeanSuffix(String(strategy), valid)}`,
    { location: { file: file.path, line: findLine(file.rawSql, String(strategy)) }, hint: `leave it unset (or 'default') for delete+insert with a unique_key and append without; a project adds its own strategy with a macro ${`get_incremental_${String(strategy).replace(/\+/g, '_')}_sql`}` },
  );
}

/**
 * A materialization mini-dbt does not know, or undefined. Not a load error
 * either: dbt looks the materialization macro up when the model runs
 * (ModelRunner.execute: MissingMaterializationError "No materialization 'x'
 * was found for adapter ..."), so that model errors and the rest runs.
 */
export function unknownMaterializationProblem(node: Pick<ModelNode, 'name' | 'config' | 'file'>): ProjectError | undefined {
  const materialized = String(node.config.materialized);
  if ((MATERIALIZATIONS as readonly string[]).includes(materialized)) return undefined;
  return new ProjectError(`model '${node.name}' has unknown materialization '${materialized}'; valid: ${MATERIALIZATIONS.join(', ')}.${didYouMeanSuffix(materialized, MATERIALIZATIONS)}`, {
    location: { file: node.file.path, line: findLine(node.file.rawSql, materialized) },
  });
}

/**
 * The first config problem of a model, or undefined: checked when the
 * project is loaded so every problem is reported before anything runs.
 * The rules every model shares are here; an incremental model's strategy
 * checks its own (IncrementalStrategy.validate). An unknown strategy or
 * materialization is not one of them: it fails its model at run time
 * (unknownStrategyProblem, unknownMaterializationProblem).
 */
export function validateModelConfig(node: Pick<ModelNode, 'name' | 'config' | 'file'>, customStrategies: readonly string[] = []): ProjectError | undefined {
  const { config, file } = node;
  const at = (needle: string) => ({ file: file.path, line: findLine(file.rawSql, needle) });
  const materialized = String(config.materialized);
  if (!(MATERIALIZATIONS as readonly string[]).includes(materialized)) return undefined;
  const key = config.unique_key;
  if (key !== undefined && key !== null && typeof key !== 'string' && !(Array.isArray(key) && key.every((k) => typeof k === 'string'))) {
    return new ProjectError(`model '${node.name}': unique_key must be a column name or a list of column names`, { location: at('unique_key') });
  }
  const nulls = config.unique_key_nulls;
  if (nulls !== undefined && nulls !== null && nulls !== 'warn' && nulls !== 'error') {
    return new ProjectError(`model '${node.name}' has invalid unique_key_nulls '${String(nulls)}'; valid: warn (dbt's behaviour: write them and say how many), error`, { location: at('unique_key_nulls') });
  }
  // An invalid on_schema_change is not refused: dbt logs it and uses ignore (invalidOnSchemaChangeNote says so on each incremental run).
  if (config.full_refresh !== undefined && config.full_refresh !== null && typeof config.full_refresh !== 'boolean') {
    return new ProjectError(`model '${node.name}': full_refresh must be true or false`, { location: at('full_refresh') });
  }
  const ignored = config.full_refresh_ignored;
  if (ignored !== undefined && ignored !== null && ignored !== 'warn' && ignored !== 'error') {
    return new ProjectError(`model '${node.name}' has invalid full_refresh_ignored '${String(ignored)}'; valid: warn (dbt's behaviour: --full-refresh runs a full_refresh: false model incrementally, with a warning), error (refuse the command)`, { location: at('full_refresh_ignored') });
  }
  const grants = grantsConfigProblem(config.grants);
  if (grants) return new ProjectError(`model '${node.name}': ${grants}`, { location: at('grants'), hint: 'grants maps each privilege to a grantee or a list of grantees: {select: [reporter]}' });
  if (materialized !== 'incremental') return undefined;
  for (const listKey of ['merge_update_columns', 'merge_exclude_columns', 'incremental_predicates'] as const) {
    if (given(config[listKey]) && !isStringList(config[listKey])) return new ProjectError(`model '${node.name}': ${listKey} must be a string or a list of strings`, { location: at(listKey) });
  }
  if (unknownStrategyProblem(node, customStrategies)) return undefined;
  // microbatch's configs (event_time, begin, batch_size, ...) are parse errors in dbt too; the others' are not.
  return effectiveStrategy(config) === 'microbatch' ? strategyConfigProblem(node) : undefined;
}

/**
 * The first problem an incremental model's strategy finds in its config
 * (IncrementalStrategy.validate), or undefined. microbatch's are checked at
 * load, as dbt parses them; every other strategy's fail the model when it
 * runs (planNode throws this), as dbt's strategy macros raise theirs then
 * (merge_update_columns with merge_exclude_columns, insert_overwrite on an
 * adapter it does not fit).
 */
export function strategyConfigProblem(node: Pick<ModelNode, 'name' | 'config' | 'file'>): ProjectError | undefined {
  const { config, file } = node;
  if (String(config.materialized) !== 'incremental') return undefined;
  const [problem] = strategyRules(effectiveStrategy(config)).validate(config, node.name);
  return problem ? new ProjectError(problem.message, { location: { file: file.path, line: findLine(file.rawSql, problem.at) }, hint: problem.hint }) : undefined;
}

/** The materialization as the model's config writes it (an unknown one has no typed setting). */
export function writtenMaterialization(node: ModelNode): string {
  return String(node.config.materialized);
}

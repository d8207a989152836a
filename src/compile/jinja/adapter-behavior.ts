import { PY_BOOL } from './python-truth.js';
/** dbt-adapters' DEFAULT_BASE_BEHAVIOR_FLAGS (dbt-sqlite registers none of its own): name and default. */
const BASE_FLAGS: Readonly<Record<string, boolean>> = {
  require_batched_execution_for_custom_microbatch_strategy: false,
  enable_truthy_nulls_equals_macro: false,
};

/**
 * One behaviour flag as dbt renders it: `.setting` and `.no_warn` are the
 * project's value (its `flags:`) or the default. A flag is an object, so
 * `{% if adapter.behavior.x %}` needs Python truth of `setting`: see
 * PY_BOOL. dbt's bare truth test also logs a notice when the flag is left
 * at a false default; mini-dbt does not.
 */
export class BehaviorFlag {
  constructor(
    readonly name: string,
    readonly setting: boolean,
  ) {}
  get no_warn(): boolean {
    return this.setting;
  }
  [PY_BOOL](): boolean {
    return this.setting;
  }
  toString(): string {
    return this.setting ? 'True' : 'False';
  }
  get [Symbol.toStringTag](): string {
    return 'BehaviorFlag';
  }
}

/** Names nunjucks and JavaScript probe on any object; they are not flags. */
const PROBED = new Set(['then', 'toString', 'valueOf', 'toJSON', 'inspect', 'length', 'constructor', '__keywords']);

/**
 * `adapter.behavior`: the registered flags, each a BehaviorFlag. Reading a
 * flag nobody registered fails the node, as dbt's does, when it runs
 * (`strict`); while parsing it is a false flag, so the project still loads.
 */
export function behaviorFlags(projectFlags: Readonly<Record<string, unknown>> | undefined, strict: boolean): Record<string, BehaviorFlag> {
  const flags: Record<string, BehaviorFlag> = Object.create(null) as Record<string, BehaviorFlag>;
  for (const [name, fallback] of Object.entries(BASE_FLAGS)) {
    const set = projectFlags?.[name];
    flags[name] = new BehaviorFlag(name, set === undefined || set === null ? fallback : Boolean(set));
  }
  Object.defineProperty(flags, Symbol.toStringTag, { value: 'Behavior' });
  return new Proxy(flags, {
    get: (target, key) => {
      if (typeof key !== 'string' || key in target || PROBED.has(key) || !/^[A-Za-z][A-Za-z0-9_]*$/.test(key)) return Reflect.get(target, key);
      if (!strict) return new BehaviorFlag(key, false);
      throw new Error(`The flag ${key} has not be registered.`);
    },
  });
}

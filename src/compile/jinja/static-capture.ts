/**
 * Pass 1 (the capture of a model's refs, sources, config() and vars read)
 * without rendering, for templates in the simple subset (simple-template.ts),
 * as dbt's static parser does for its subset. The template's nodes are walked
 * as renderSimpleTemplate walks them (the same branches, the same calls in
 * the same order), but only ref, source, config, var, is_incremental and
 * inert macros (inert-macros.ts) are called, each on arguments it accepts
 * without an error, and nothing is written.
 *
 * It says no (returns false) wherever it cannot prove that the render would
 * capture the same and raise nothing: any other name or call, a builtin a
 * project macro replaces, arguments of another shape (keywords to ref, a
 * number as a var's name, too many arguments to a macro, ...), a macro's
 * output used as a value, a config() setting a hook (hooks are rendered by
 * the capture too). Then the model is rendered as before: a render's errors
 * and messages are never guessed here. The differential tests compare both
 * on random templates and on every fixture model.
 */
import type { Relation } from '../relation.js';
import { plainValues } from '../context-functions.js';
import { normalizeConfigKey } from '../../config/merge-configs.js';
import type { InertMacro } from './inert-macros.js';
import { jinjaOutputText } from './python-output.js';
import { truthy } from './python-truth.js';
import { guardValue } from './sandbox-policy.js';
import type { Expr, SimpleNode, SimpleTemplate } from './simple-template.js';

/** Where a static capture records what the render would have recorded. */
export interface CaptureSink {
  readonly incremental: boolean;
  /** `this`. */
  readonly self: Relation;
  ref(name: string): Relation;
  source(sourceName: string, tableName: string): Relation;
  readVar(name: string): { found: boolean; value: unknown };
  /** One config() call's keyword arguments, as config() merges them. */
  config(values: Record<string, unknown>): void;
}

/** What the environment knows about names: whether a builtin is still the builtin, and the inert macros. */
export interface StaticNames {
  /** Whether `name` (ref, source, config, var, is_incremental, this) resolves to dbt's builtin (no project macro replaces it). */
  readonly builtin: (name: string) => boolean;
  /** The inert macro a root-project model's call of `name` resolves to, if any. */
  readonly inertMacro: (name: string) => InertMacro | undefined;
}

/** Thrown inside the walk when the template leaves what can be proven; never escapes. */
const NOT_STATIC = Symbol('not static');
/** A macro's output: text the walk does not compute (only written, never used as a value). */
const MACRO_TEXT = Symbol('macro text');

const BUILTINS = new Set(['ref', 'source', 'config', 'var', 'is_incremental']);
const HOOKS = new Set(['pre_hook', 'post_hook']);

/**
 * Capture `template` into `sink` without rendering it: true when done, false
 * when it cannot be proven (the sink may then hold part of a capture: the
 * caller starts again with a render).
 */
export function captureSimpleTemplate(template: SimpleTemplate, names: StaticNames, sink: CaptureSink): boolean {
  try {
    walk(template.nodes, names, sink);
    return true;
  } catch (err) {
    if (err === NOT_STATIC) return false;
    return false; // anything unforeseen: the render decides
  }
}

function walk(nodes: readonly SimpleNode[], names: StaticNames, sink: CaptureSink): void {
  for (const node of nodes) {
    if (node.kind === 'text') continue;
    if (node.kind === 'output') {
      const value = evaluate(node.expr, names, sink);
      // What {{ }} writes of a value (a var's list or dict is written as Python writes it).
      if (value !== MACRO_TEXT && value !== null && typeof value === 'object') jinjaOutputText(value);
      continue;
    }
    const branch = node.branches.find((b) => truthy(data(evaluate(b.cond, names, sink))));
    walk(branch ? branch.body : node.otherwise, names, sink);
  }
}

/** A value used as data (an argument, an item, a condition): never a macro's output. */
function data(value: unknown): unknown {
  if (value === MACRO_TEXT) throw NOT_STATIC;
  return value;
}

function evaluate(expr: Expr, names: StaticNames, sink: CaptureSink): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'name':
      if (expr.name === 'this' && names.builtin('this')) return sink.self;
      throw NOT_STATIC;
    case 'list':
      return expr.items.map((item) => data(evaluate(item, names, sink)));
    case 'not':
      return !truthy(data(evaluate(expr.expr, names, sink)));
    case 'call': {
      const builtin = BUILTINS.has(expr.name) && names.builtin(expr.name);
      const macro = builtin ? undefined : names.inertMacro(expr.name);
      if (!builtin && !macro) throw NOT_STATIC;
      // Arguments in the render's order: positional, then keywords.
      const args = expr.args.map((a) => data(evaluate(a, names, sink)));
      const keywords: [string, unknown][] = expr.keywords.map(([name, value]) => [name, data(evaluate(value, names, sink))]);
      if (macro) return callMacro(macro, args, keywords, names, sink);
      return callBuiltin(expr.name, args, keywords, sink);
    }
  }
}

const isText = (v: unknown): v is string => typeof v === 'string';

function callBuiltin(name: string, args: readonly unknown[], keywords: readonly [string, unknown][], sink: CaptureSink): unknown {
  if (name === 'config') {
    if (args.length > 0 || keywords.length === 0) throw NOT_STATIC;
    const given: Record<string, unknown> = {};
    for (const [key, value] of keywords) {
      if (key.startsWith('__') || HOOKS.has(normalizeConfigKey(key))) throw NOT_STATIC;
      given[key] = value;
    }
    sink.config(plainValues(given));
    return '';
  }
  if (keywords.length > 0) throw NOT_STATIC;
  switch (name) {
    case 'ref':
      if ((args.length !== 1 && args.length !== 2) || !args.every(isText)) throw NOT_STATIC;
      return sink.ref(args[args.length - 1] as string);
    case 'source':
      if (args.length !== 2 || !args.every(isText)) throw NOT_STATIC;
      return sink.source(args[0] as string, args[1] as string);
    case 'var': {
      if ((args.length !== 1 && args.length !== 2) || !isText(args[0])) throw NOT_STATIC;
      const found = sink.readVar(args[0]);
      // Pass 1 does not execute: a missing var without a default is undefined, not an error.
      return guardValue(found.found ? found.value : args[1]);
    }
    case 'is_incremental':
      if (args.length > 0) throw NOT_STATIC;
      return sink.incremental;
  }
  throw NOT_STATIC;
}

/** An inert macro's call: its arguments must bind as Jinja binds them, and its filtered parameters be text. */
function callMacro(macro: InertMacro, args: readonly unknown[], keywords: readonly [string, unknown][], names: StaticNames, sink: CaptureSink): symbol {
  // The body's var() and `this` must be dbt's (a project macro named var would be called instead).
  if (args.length > macro.params.length || !names.builtin('var') || !names.builtin('this')) throw NOT_STATIC;
  const values = new Map<string, unknown>();
  macro.params.forEach((param, i) => values.set(param, i < args.length ? args[i] : macro.defaults.get(param)));
  for (const [key, value] of keywords) {
    const at = macro.params.indexOf(key);
    if (at < args.length) throw NOT_STATIC; // unknown, or given by position already: Jinja's TypeError
    values.set(key, value);
  }
  for (const step of macro.steps) {
    if (step.kind === 'var') {
      const found = sink.readVar(step.name);
      const value = guardValue(found.found ? found.value : step.fallback);
      if (value !== null && typeof value === 'object') jinjaOutputText(value);
    } else {
      const value = values.get(step.param);
      if (!(typeof value === 'string' || value === undefined || value === null || value === false)) throw NOT_STATIC;
    }
  }
  return MACRO_TEXT;
}

/**
 * Macros a model's pass-1 capture can call without rendering them
 * (static-capture.ts): a macro whose body is only text, its parameters,
 * `this`, `var('literal'[, literal])`, and `upper`/`lower` of a parameter.
 * Such a body calls no ref(), source() or config(), raises nothing (given
 * what static-capture.ts checks at the call: the arguments bind, and a
 * filtered parameter is text or none), and its only effect on a capture is
 * the vars it reads, in order. Everything else (blocks, other names,
 * attributes, operators, calls of anything else, varargs/kwargs/caller) makes
 * the macro not inert, and a model calling it is rendered.
 */
import { internals } from './nunjucks-internals.js';

/** What calling an inert macro does to a capture, in the order its body does it. */
export type InertStep =
  | { readonly kind: 'var'; readonly name: string; readonly hasDefault: boolean; readonly fallback: unknown }
  /** `{{ param | upper }}`: the parameter's value must be text, none, false or missing (nunjucks' normalize, then a string method). */
  | { readonly kind: 'text-filter'; readonly param: string };

export interface InertMacro {
  readonly params: readonly string[];
  /** Literal defaults of the parameters that have one. */
  readonly defaults: ReadonlyMap<string, unknown>;
  readonly steps: readonly InertStep[];
}

interface AstNode {
  readonly typename: string;
  readonly value?: unknown;
  readonly children?: AstNode[];
  readonly name?: AstNode;
  readonly args?: AstNode;
  readonly body?: AstNode;
  readonly key?: AstNode;
  readonly target?: AstNode;
}

/** Names a parameter must not take (it would shadow what the body relies on). */
const RESERVED_PARAMS = new Set(['var', 'this', 'varargs', 'kwargs', 'caller', 'upper', 'lower']);
const TEXT_FILTERS = new Set(['upper', 'lower']);

/**
 * The inert macros defined at the top level of one macro file, by name.
 * `parse` is nunjucks' parser as the environment configures it (the source
 * already preprocessed); a file it cannot parse has none. A name defined
 * more than once in the file (at any depth) is left out.
 */
export function inertMacrosOf(source: string, parse: (source: string) => unknown): Map<string, InertMacro> {
  const out = new Map<string, InertMacro>();
  let root: AstNode;
  try {
    root = parse(source) as AstNode;
  } catch {
    return out;
  }
  const counts = new Map<string, number>();
  const countMacros = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) countMacros(child);
      return;
    }
    const n = node as AstNode;
    if (n.typename === 'Macro' && n.name && typeof n.name.value === 'string') counts.set(n.name.value, (counts.get(n.name.value) ?? 0) + 1);
    for (const child of Object.values(n)) if (child !== null && typeof child === 'object') countMacros(child);
  };
  countMacros(root);
  for (const node of root.children ?? []) {
    if (node.typename !== 'Macro' || typeof node.name?.value !== 'string' || counts.get(node.name.value) !== 1) continue;
    const macro = inertMacro(node);
    if (macro) out.set(node.name.value, macro);
  }
  return out;
}

/** nunjucks' parser with the environment's extensions, for inertMacrosOf. */
export function nunjucksParse(extensions: unknown, opts: unknown): (source: string) => unknown {
  const parser = (internals as unknown as { parser: { parse(src: string, extensions: unknown, opts: unknown): unknown } }).parser;
  return (source) => parser.parse(source, extensions, opts);
}

function inertMacro(node: AstNode): InertMacro | null {
  const params: string[] = [];
  const defaults = new Map<string, unknown>();
  for (const arg of node.args?.children ?? []) {
    if (arg.typename === 'Symbol' && typeof arg.value === 'string') {
      params.push(arg.value);
    } else if (arg.typename === 'KeywordArgs') {
      for (const pair of arg.children ?? []) {
        const key = pair.key?.value;
        const value = (pair as unknown as { value?: AstNode }).value;
        if (pair.typename !== 'Pair' || typeof key !== 'string' || value?.typename !== 'Literal') return null;
        params.push(key);
        defaults.set(key, value.value);
      }
    } else {
      return null;
    }
  }
  if (new Set(params).size !== params.length || params.some((p) => RESERVED_PARAMS.has(p) || p.startsWith('_'))) return null;
  const steps: InertStep[] = [];
  for (const output of node.body?.children ?? []) {
    if (output.typename !== 'Output') return null;
    for (const part of output.children ?? []) {
      if (part.typename === 'TemplateData' || part.typename === 'Literal') continue;
      if (part.typename === 'Symbol' && (part.value === 'this' || params.includes(part.value as string))) continue;
      const step = stepOf(part, params);
      if (!step) return null;
      steps.push(step);
    }
  }
  return { params, defaults, steps };
}

/** A var() call on literals, or upper/lower of a parameter; null for anything else. */
function stepOf(part: AstNode, params: readonly string[]): InertStep | null {
  const args = part.args?.children ?? [];
  if (part.typename === 'FunCall' && part.name?.typename === 'Symbol' && part.name.value === 'var') {
    if (args.length < 1 || args.length > 2 || !args.every((a) => a.typename === 'Literal') || typeof args[0]!.value !== 'string') return null;
    return { kind: 'var', name: args[0]!.value, hasDefault: args.length === 2, fallback: args[1]?.value };
  }
  if (part.typename === 'Filter' && part.name?.typename === 'Symbol' && TEXT_FILTERS.has(part.name.value as string)) {
    const target = args[0];
    if (args.length !== 1 || target?.typename !== 'Symbol' || !params.includes(target.value as string)) return null;
    return { kind: 'text-filter', param: target.value as string };
  }
  return null;
}

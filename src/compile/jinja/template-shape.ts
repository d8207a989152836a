import type nunjucks from 'nunjucks';
import { internals } from './nunjucks-internals.js';

/**
 * A template's shape (shared-template-code.ts): its parsed tree walked once,
 * every Literal and TemplateData (the text between tags) that the compiler
 * writes through compileLiteral made a slot `__L[k]`, and every node's line
 * and column too (set on the node as that text, which the compiler writes
 * into the code as it is), the values collected in walk order. Everything
 * else is the shape, as a string: node types, names, operators, whether a
 * text is empty, and the literals the compiler writes by value (a dict's
 * literal key, a callee's name as its error message names it).
 */

export type AstNode = { lineno: unknown; colno: unknown; typename: string; value?: unknown } & Record<string, unknown>;

/** A template's tree with its slots, and its shape as a string. */
export interface Shape {
  readonly ast: AstNode;
  /** null when the tree holds something the walk does not know (the template gets code of its own). */
  readonly key: string | null;
  readonly values: unknown[];
  /** The slot of each Literal and TemplateData that has one. */
  readonly slots: Map<object, number>;
  /** The literals that are part of the shape by value (dict keys, callees' names). */
  readonly byValue: Set<object>;
  /** The slots holding a line (the next slot holds its column). */
  readonly lines: readonly number[];
  /** Whether the tree names the template's path in its code (include, import, extends). */
  readonly namesPath: boolean;
}

/** Nodes whose code names the template's own path (the parent of the template they load): the path is part of their shape. */
const INCLUDES_PATH = new Set(['Include', 'Import', 'FromImport', 'Extends']);

/** `__L[k]`, made once per k. */
const parameterNames: string[] = [];
export const parameter = (k: number): string => (parameterNames[k] ??= `__L[${k}]`);

/** The template's tree as nunjucks parses it (after its extensions' preprocessing), throwing nunjucks' parse error. */
export function parseTemplate(env: nunjucks.Environment, source: string): AstNode {
  const { extensionsList, opts } = env as unknown as { extensionsList: { preprocess?: (s: string) => string }[]; opts: unknown };
  const src = extensionsList.reduce((s, ext) => (ext.preprocess ? ext.preprocess(s) : s), source);
  return (internals.parser as unknown as { parse: (src: string, extensions: unknown, opts: unknown) => AstNode }).parse(src, extensionsList, opts);
}

/** Walk the tree: slots for literals and positions (set on the nodes as `__L[k]`), and the shape of the rest. */
export function shapeOf(ast: AstNode, path: string): Shape {
  const Node = (internals.nodes as unknown as { Node: new () => object }).Node;
  const values: unknown[] = [];
  const slots = new Map<object, number>();
  const byValueLiterals = new Set<object>();
  const lines: number[] = [];
  let namesPath = false;
  let key = '';
  const visit = (value: unknown, byValue: boolean): boolean => {
    switch (typeof value) {
      case 'string':
        key += `s${value.length}:${value}`;
        return true;
      case 'number':
        key += `d${value};`;
        return true;
      case 'boolean':
        key += value ? 'T' : 'F';
        return true;
      case 'undefined':
        key += 'u';
        return true;
      case 'object':
        break;
      default:
        return false;
    }
    if (value === null) {
      key += 'n';
      return true;
    }
    if (Array.isArray(value)) {
      key += '[';
      for (const item of value) if (!visit(item, byValue)) return false;
      key += ']';
      return true;
    }
    if (!(value instanceof Node)) return false;
    const node = value as AstNode;
    // Reached twice (a node shared by two parents): not a tree this walk knows.
    if (typeof node.lineno !== 'number' || typeof node.colno !== 'number') return false;
    lines.push(values.length);
    node.lineno = parameter(values.push(node.lineno) - 1);
    node.colno = parameter(values.push(node.colno) - 1);
    const type = node.typename;
    key += `${type}(`;
    if (INCLUDES_PATH.has(type)) {
      key += `@${path.length}:${path}`;
      namesPath = true;
    }
    const literal = (type === 'Literal' || type === 'TemplateData') && !byValue;
    if (byValue && (type === 'Literal' || type === 'TemplateData')) byValueLiterals.add(node);
    if (literal) {
      // The type and whether it is empty are the shape's (the compiler writes a non-empty text only).
      key += `$${typeof node.value}${node.value === '' ? 'e' : ''}`;
      slots.set(node, values.push(node.value) - 1);
    }
    for (const field of Object.keys(node)) {
      if (field === 'lineno' || field === 'colno' || (literal && field === 'value')) continue;
      key += `${field}=`;
      // What the compiler writes by value: a dict's literal key, and a callee's name (its own name, and the chain
      // of lookups it is: `a.b['c']()` names a, b and c; the arguments of a call in the chain are not in it).
      const fieldByValue = (type === 'FunCall' && field === 'name') || (type === 'Pair' && field === 'key') || (byValue && type === 'LookupVal' && (field === 'target' || field === 'val'));
      if (!visit(node[field], fieldByValue)) return false;
    }
    key += ')';
    return true;
  };
  const known = visit(ast, false);
  return { ast, key: known ? key : null, values, slots, byValue: byValueLiterals, lines, namesPath };
}

import type nunjucks from 'nunjucks';
import { internals } from './nunjucks-internals.js';
import { parameter, type AstNode, type Shape } from './template-shape.js';

/**
 * nunjucks' compile of a shape (template-shape.ts) with its slots as
 * parameters: compileLiteral writes a slotted literal as `__L[k]`, and the
 * module-level compile (transform, code generation, the macro-return
 * rewrite of return-value.ts) is given the shape's tree instead of parsing
 * the source again. The compile is watched: a slotted Literal's value read
 * by the compiler (through a trap on it, nunjucks' own type searches
 * aside), or a literal compiled by value that is not part of the shape,
 * makes the code this template's only (`baked`): the value may be in it.
 */

interface CompilerInternals {
  _emit(code: string): void;
}

/** The shape compiling now (null when nunjucks compiles a template of its own). */
let compiling: (Shape & { baked: boolean }) | null = null;
/** Inside nunjucks' findAll (a search for node types, which reads every field and uses none of a literal's value). */
let searching = 0;
let patched = false;

/** The shape's code, and whether it holds a slotted value (then it is this template's only); throws what the compile throws. */
export function compileShape(env: nunjucks.Environment, shape: Shape, source: string, path: string): { code: string; baked: boolean } {
  installParameterisedCompile();
  const { asyncFilters, extensionsList, opts } = env as unknown as { asyncFilters: unknown; extensionsList: unknown; opts: unknown };
  const current = { ...shape, baked: false };
  compiling = current;
  try {
    return { code: internals.compiler.compile(source, asyncFilters, extensionsList, path, opts), baked: current.baked };
  } finally {
    compiling = null;
  }
}

function installParameterisedCompile(): void {
  if (patched) return;
  patched = true;
  const proto = internals.compiler.Compiler.prototype;
  const compileLiteral = proto.compileLiteral as (this: CompilerInternals, node: object, frame: unknown) => void;
  proto.compileLiteral = function compileLiteralParameter(this: CompilerInternals, node: object, frame: unknown): void {
    const slot = compiling?.slots.get(node);
    if (slot !== undefined) return this._emit(parameter(slot));
    // A literal of the shape (a dict key, a callee's name) or one the compile made: its value is in the code.
    if (compiling && !compiling.byValue.has(node)) compiling.baked = true;
    return compileLiteral.call(this, node, frame);
  };
  const nodeProto = (internals.nodes as unknown as { Node: { prototype: Record<string, unknown> } }).Node.prototype;
  const findAll = nodeProto.findAll as (this: unknown, ...args: unknown[]) => unknown;
  nodeProto.findAll = function findAllCounted(this: unknown, ...args: unknown[]): unknown {
    searching += 1;
    try {
      return findAll.apply(this, args);
    } finally {
      searching -= 1;
    }
  };
  const compileRoot = proto.compileRoot as (this: unknown, node: unknown, frame: unknown) => void;
  proto.compileRoot = function compileRootTrapped(this: unknown, node: unknown, frame: unknown): void {
    if (compiling) trapLiteralReads(compiling);
    return compileRoot.call(this, node, frame);
  };
  // The module-level compile (transform, code generation, the macro-return rewrite) parses the tree given here.
  const parser = internals.parser as unknown as { parse: (...args: unknown[]) => unknown };
  const parse = parser.parse;
  parser.parse = function parseOrGiven(this: unknown, ...args: unknown[]): unknown {
    return compiling ? compiling.ast : parse.apply(this, args);
  };
}

/** A slotted Literal's value read during the compile marks the shape as not shareable (the reader may have baked it into the code). */
function trapLiteralReads(shape: Shape & { baked: boolean }): void {
  for (const [node, slot] of shape.slots) {
    if ((node as AstNode).typename !== 'Literal') continue;
    Object.defineProperty(node, 'value', {
      get: () => {
        if (searching === 0) shape.baked = true;
        return shape.values[slot];
      },
      set: (value: unknown) => {
        shape.baked = true;
        shape.values[slot] = value;
      },
      enumerable: true,
      configurable: true,
    });
  }
}

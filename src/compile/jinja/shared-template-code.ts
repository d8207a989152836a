import nunjucks from 'nunjucks';
import { internals } from './nunjucks-internals.js';

/**
 * Templates that differ only in their literals share one compiled function.
 *
 * nunjucks compiles a template to JavaScript source and runs it through
 * `new Function`; V8 then parses that source, compiles its functions on their
 * first call and runs them as cold bytecode: most of the cost of a template
 * rendered once (a model). Models of a project are mostly written alike
 * (`select ... from {{ ref('orders') }}` in hundreds of files, differing in
 * their names, text and line numbers), so their code differs only in the
 * constants nunjucks writes into it.
 *
 * Here those constants are parameters. The template is parsed (nunjucks'
 * own parser) and its tree walked once: every Literal and TemplateData (the
 * text between tags) becomes a slot `__L[k]`, and so does every node's line
 * and column (which the code stores for error messages), the values
 * collected in walk order; everything else (node types, names, operators,
 * whether a text is empty, the literals whose value the compiler writes
 * into the code itself: dict keys and callee names) makes the template's
 * shape. Two caches:
 *
 *  - by shape: a template whose shape was seen before costs one call of its
 *    factory with its own values (no transform, no code generation, no
 *    `new Function`, and the shared functions are already compiled and warm);
 *  - by code: a new shape is compiled with its slots as parameters, and its
 *    code is the key of the `new Function('__L', code)` factories, so shapes
 *    that compile alike share one function too. Code is correct by
 *    construction: a template's code is exactly what it compiles to itself.
 *
 * The shape entry is kept only when the compile read no slotted literal's
 * value (it reads them through a trap: a value read by the compiler would
 * have been baked into code the next template of the shape must not get)
 * and compiled no literal that has no slot; otherwise only the code entry
 * serves. A template whose tree holds anything unexpected, or that fails to
 * compile this way, is compiled as nunjucks does (its error is nunjucks'
 * own, with its positions). Templates cannot reach `__L`: names in a
 * template compile to frame and context lookups, never to JavaScript
 * identifiers.
 */

interface CompilerInternals {
  _emit(code: string): void;
}

type AstNode = { lineno: unknown; colno: unknown; typename: string; value?: unknown } & Record<string, unknown>;

/** A template's tree with its slots, and its shape as a string. */
interface Shape {
  readonly ast: AstNode;
  /** null when the tree holds something the walk does not know (the template gets code of its own). */
  readonly key: string | null;
  readonly values: unknown[];
  /** The slot of each Literal and TemplateData that has one. */
  readonly slots: Map<object, number>;
  /** The literals that are part of the shape by value (dict keys, callees' names). */
  readonly byValue: Set<object>;
}

/** The shape compiling now (null when nunjucks compiles a template of its own). */
let compiling: (Shape & { baked: boolean }) | null = null;
/** Inside nunjucks' findAll (a search for node types, which reads every field and uses none of a literal's value). */
let searching = 0;
let patched = false;

/** Nodes whose literals the compiler writes into the code by value: they are part of the shape. */
const INCLUDES_PATH = new Set(['Include', 'Import', 'FromImport', 'Extends']);

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

/** `__L[k]`, made once per k. */
const parameterNames: string[] = [];
const parameter = (k: number): string => (parameterNames[k] ??= `__L[${k}]`);

/** A slotted Literal's value read during the compile marks the shape as not shareable (the reader may have baked it into the code). */
function trapLiteralReads(shape: Shape & { baked: boolean }): void {
  for (const [node, slot] of shape.slots) {
    if ((node as AstNode).typename !== 'Literal') continue;
    Object.defineProperty(node, 'value', {
      get: () => {
        if (searching === 0) shape.baked = true;
        return shape.values[slot];
      },
      set: () => {
        shape.baked = true;
      },
      enumerable: true,
      configurable: true,
    });
  }
}

function parseTemplate(env: nunjucks.Environment, source: string): AstNode {
  const { extensionsList, opts } = env as unknown as { extensionsList: { preprocess?: (s: string) => string }[]; opts: unknown };
  const src = extensionsList.reduce((s, ext) => (ext.preprocess ? ext.preprocess(s) : s), source);
  return (internals.parser as unknown as { parse: (src: string, extensions: unknown, opts: unknown) => AstNode }).parse(src, extensionsList, opts);
}

/** Walk the tree: slots for literals and positions (set on the nodes as `__L[k]`), and the shape of the rest. */
function shapeOf(ast: AstNode, path: string): Shape {
  const Node = (internals.nodes as unknown as { Node: new () => object }).Node;
  const values: unknown[] = [];
  const slots = new Map<object, number>();
  const byValueLiterals = new Set<object>();
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
    node.lineno = parameter(values.push(node.lineno) - 1);
    node.colno = parameter(values.push(node.colno) - 1);
    const type = node.typename;
    key += `${type}(`;
    if (INCLUDES_PATH.has(type)) key += `@${path.length}:${path}`;
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
      const fieldByValue = byValue || (type === 'FunCall' && field === 'name') || (type === 'Pair' && field === 'key');
      if (!visit(node[field], fieldByValue)) return false;
    }
    key += ')';
    return true;
  };
  const known = visit(ast, false);
  return { ast, key: known ? key : null, values, slots, byValue: byValueLiterals };
}

type Factory = (values: readonly unknown[]) => Record<string, unknown>;

/** The compiled code of one environment's templates, by shape and by code (see the file comment). */
export class SharedTemplateCode {
  private readonly byShape = new Map<string, Factory>();
  private readonly byCode = new Map<string, Factory>();
  /** Templates compiled with parameters; of them, those whose shape was known; and the functions made (for tests and the bench). */
  compiled = 0;
  shapeHits = 0;
  distinct = 0;

  constructor(private readonly env: nunjucks.Environment) {
    installParameterisedCompile();
  }

  /** `source` (already preprocessed) as a compiled Template; throws what `new nunjucks.Template` throws. */
  template(source: string, path: string): nunjucks.Template {
    const props = this.props(source, path);
    if (!props) return new nunjucks.Template(source, this.env, path, true);
    this.compiled += 1;
    return new nunjucks.Template({ type: 'code', obj: props } as unknown as string, this.env, path, true);
  }

  private props(source: string, path: string): Record<string, unknown> | null {
    let shape: Shape;
    try {
      shape = shapeOf(parseTemplate(this.env, source), path);
    } catch {
      return null; // compiled again by nunjucks, for its own error
    }
    if (shape.key === null) return null;
    const known = this.byShape.get(shape.key);
    if (known) {
      this.shapeHits += 1;
      return known(shape.values);
    }
    const env = this.env as unknown as { asyncFilters: unknown; extensionsList: unknown; opts: unknown };
    const current = { ...shape, baked: false };
    let code: string;
    compiling = current;
    try {
      code = internals.compiler.compile(source, env.asyncFilters, env.extensionsList, path, env.opts);
    } catch {
      return null;
    } finally {
      compiling = null;
    }
    let factory = this.byCode.get(code);
    if (!factory) {
      try {
        factory = new Function('__L', code) as Factory; // eslint-disable-line no-new-func
      } catch {
        return null;
      }
      this.byCode.set(code, factory);
      this.distinct += 1;
    }
    if (!current.baked) this.byShape.set(shape.key, factory);
    return factory(shape.values);
  }
}

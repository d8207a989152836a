import nunjucks from 'nunjucks';
import { internals } from './nunjucks-internals.js';
import { MARK_END, MARK_START, skeletonOf, templatePosition, type Skeleton } from './template-skeleton.js';

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
 * shape. Three caches:
 *
 *  - by skeleton (template-skeleton.ts: the source with its texts, string
 *    contents and comments masked): a template whose skeleton was seen
 *    before is not parsed at all; its values are the skeleton tree's with
 *    its own texts and strings put back and its positions moved by what
 *    they changed;
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
  /** The slots holding a line (the next slot holds its column). */
  readonly lines: readonly number[];
  /** Whether the tree names the template's path in its code (include, import, extends). */
  readonly namesPath: boolean;
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

type Factory = (values: readonly unknown[]) => Record<string, unknown>;

/** How a skeleton's slots get a template's values: a constant, a text with markers to fill, or a line (then its column) to move. */
interface Recipe {
  readonly factory: Factory;
  /** Per slot: 0 the constant in `of`, 1 the parts in `of` (text, marker number, text, ...), 2 a line and 3 its column (skeleton positions in `of`). */
  readonly kinds: Uint8Array;
  readonly of: readonly unknown[];
}

const MARKER = new RegExp(`${MARK_START}(\\d+)${MARK_END}`, 'g');

/** The compiled code of one environment's templates, by skeleton, by shape and by code (see the file comment). */
export class SharedTemplateCode {
  private readonly bySkeleton = new Map<string, Recipe | null>();
  private readonly byShape = new Map<string, Factory>();
  private readonly byCode = new Map<string, Factory>();
  /** Templates compiled with parameters; of them, those whose skeleton or shape was known; and the functions made (for tests and the bench). */
  compiled = 0;
  skeletonHits = 0;
  shapeHits = 0;
  distinct = 0;

  constructor(private readonly env: nunjucks.Environment) {
    installParameterisedCompile();
  }

  /** `source` (already preprocessed) as a compiled Template; throws what `new nunjucks.Template` throws. */
  template(source: string, path: string): nunjucks.Template {
    const props = this.fromSkeleton(source, path) ?? this.props(source, path);
    if (!props) return new nunjucks.Template(source, this.env, path, true);
    this.compiled += 1;
    return new nunjucks.Template({ type: 'code', obj: props } as unknown as string, this.env, path, true);
  }

  /** The template through its skeleton (no parse of its own), or null: parsed as itself. */
  private fromSkeleton(source: string, path: string): Record<string, unknown> | null {
    const skeleton = skeletonOf(source);
    if (!skeleton) return null;
    let recipe = this.bySkeleton.get(skeleton.text);
    if (recipe === undefined) {
      recipe = this.recipe(skeleton, path);
      this.bySkeleton.set(skeleton.text, recipe);
    } else if (recipe) this.skeletonHits += 1;
    return recipe ? recipe.factory(fill(recipe, skeleton)) : null;
  }

  /**
   * A skeleton's recipe, or null when its tree shows the scan and the parser
   * disagree: every text and string marker must be in exactly one slot of its
   * kind (texts in TemplateData, strings in Literal), comments' in none, and
   * none in the shape itself (a name, a dict key, a callee's name).
   */
  private recipe(skeleton: Skeleton, path: string): Recipe | null {
    let shape: Shape;
    try {
      shape = shapeOf(parseTemplate(this.env, skeleton.text), path);
    } catch {
      return null;
    }
    if (shape.key === null || shape.namesPath || shape.key.includes(MARK_START) || shape.key.includes(MARK_END)) return null;
    const typeOf = new Map<number, string>();
    for (const [node, slot] of shape.slots) typeOf.set(slot, (node as AstNode).typename);
    const seen = new Int32Array(skeleton.cores.length);
    const kinds = new Uint8Array(shape.values.length);
    const of: unknown[] = [];
    for (const line of shape.lines) {
      kinds[line] = 2;
      kinds[line + 1] = 3;
    }
    for (let i = 0; i < shape.values.length; i++) {
      const value = shape.values[i];
      of.push(value);
      if (kinds[i] !== 0) continue;
      if (typeof value !== 'string') {
        if (value !== null && typeof value === 'object') return null; // a regex literal: its body may hold a marker
        continue;
      }
      if (!value.includes(MARK_START) && !value.includes(MARK_END)) continue;
      const parts: (string | number)[] = [];
      let last = 0;
      for (const match of value.matchAll(MARKER)) {
        const k = Number(match[1]);
        const expected = skeleton.kinds[k] === 'text' ? 'TemplateData' : skeleton.kinds[k] === 'string' ? 'Literal' : undefined;
        if (k >= seen.length || typeOf.get(i) !== expected) return null;
        seen[k] += 1;
        parts.push(value.slice(last, match.index), k);
        last = match.index + match[0].length;
      }
      parts.push(value.slice(last));
      if (parts.some((p) => typeof p === 'string' && (p.includes(MARK_START) || p.includes(MARK_END)))) return null;
      kinds[i] = 1;
      of[i] = parts;
    }
    for (let k = 0; k < seen.length; k++) if (seen[k] !== (skeleton.kinds[k] === 'comment' ? 0 : 1)) return null;
    const factory = this.factory(shape, skeleton.text, path, true);
    return factory ? { factory, kinds, of } : null;
  }

  private props(source: string, path: string): Record<string, unknown> | null {
    let shape: Shape;
    try {
      shape = shapeOf(parseTemplate(this.env, source), path);
    } catch {
      return null; // compiled again by nunjucks, for its own error
    }
    if (shape.key === null) return null;
    if (this.byShape.has(shape.key)) this.shapeHits += 1;
    return this.factory(shape, source, path, false)?.(shape.values) ?? null;
  }

  /**
   * The function of a shape: known, or compiled (null when that fails). A
   * compile that read a slotted value gives code for this tree only: it is
   * not kept for the shape, and not given to a skeleton (`shared`).
   */
  private factory(shape: Shape, source: string, path: string, shared: boolean): Factory | null {
    const key = shape.key!;
    const known = this.byShape.get(key);
    if (known) return known;
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
    if (current.baked) return shared ? null : factory;
    this.byShape.set(key, factory);
    return factory;
  }
}

/** A template's values for its skeleton's slots: its own texts and strings put in, its own positions. */
function fill(recipe: Recipe, skeleton: Skeleton): unknown[] {
  const { kinds, of } = recipe;
  const values = new Array<unknown>(kinds.length);
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i];
    if (kind === 0) values[i] = of[i];
    else if (kind === 1) {
      const parts = of[i] as readonly (string | number)[];
      let text = '';
      for (const part of parts) text += typeof part === 'number' ? skeleton.cores[part] : part;
      values[i] = text;
    } else if (kind === 2) {
      const [line, col] = templatePosition(skeleton, of[i] as number, of[i + 1] as number);
      values[i] = line;
      values[i + 1] = col;
      i += 1;
    }
  }
  return values;
}

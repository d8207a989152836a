import { internals, type CompilerInstance } from './nunjucks-internals.js';
import { isPlainDict } from './python-repr.js';
import { isSafeString } from './nunjucks-internals.js';

/**
 * Spreading at a call site, as Python and Jinja write it: `f(*args)` passes
 * the items of a list (or tuple, or string) as positional arguments,
 * `f(**kwargs)` the items of a dict as keyword arguments, mixed freely:
 * `f(a, *rest, k=1, **more)`. The parser (trailing-commas.ts'
 * parseSignature) makes a MiniDbtStarArgs or MiniDbtStarKwargs node of each;
 * they compile to JavaScript spreads in the call's argument list and keyword
 * object.
 */
type Node = { lineno: number; colno: number; typename: string; value: unknown };
type NodeClass = new (lineno: number, colno: number, value: unknown) => Node;

let StarArgs: NodeClass | undefined;
let StarKwargs: NodeClass | undefined;

function nodeClasses(): { StarArgs: NodeClass; StarKwargs: NodeClass } {
  const node = internals.nodes.Node as unknown as { extend(name: string, props: { fields: string[] }): NodeClass };
  StarArgs ??= node.extend('MiniDbtStarArgs', { fields: ['value'] });
  StarKwargs ??= node.extend('MiniDbtStarKwargs', { fields: ['value'] });
  return { StarArgs, StarKwargs };
}

/** The node for `*expr` (`double` false) or `**expr`. */
export function starNode(double: boolean, lineno: number, colno: number, value: unknown): Node {
  const classes = nodeClasses();
  return new (double ? classes.StarKwargs : classes.StarArgs)(lineno, colno, value);
}

const isStar = (node: unknown): boolean => {
  const name = (node as { typename?: string } | null)?.typename;
  return name === 'MiniDbtStarArgs' || name === 'MiniDbtStarKwargs';
};

/** The positional arguments `*value` spreads. */
function spreadArgs(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' || isSafeString(value)) return [...String(value)];
  if (isPlainDict(value)) return Object.keys(value);
  if (value !== null && typeof value === 'object' && Symbol.iterator in value) return [...(value as Iterable<unknown>)];
  throw new TypeError(`argument after * must be an iterable, not ${value === null || value === undefined ? 'NoneType' : typeof value}`);
}

/** The keyword arguments `**value` spreads (own items only). */
function spreadKwargs(value: unknown): Record<string, unknown> {
  if (value instanceof Map) return Object.fromEntries(value);
  if (!isPlainDict(value)) throw new TypeError(`argument after ** must be a mapping, not ${value === null || value === undefined ? 'NoneType' : Array.isArray(value) ? 'list' : typeof value}`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__keywords') continue;
    Object.defineProperty(out, key, { value: value[key], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** A call's arguments after spreading: an empty keyword object (`**{}`) is no keyword argument at all. */
function callArgs(args: unknown[]): unknown[] {
  const last = args[args.length - 1] as Record<string, unknown> | undefined;
  if (last !== null && typeof last === 'object' && Object.prototype.hasOwnProperty.call(last, '__keywords') && Object.keys(last).length === 1) return args.slice(0, -1);
  return args;
}

type Compiler = CompilerInstance & { _compileExpression(node: unknown, frame: unknown): void; _compileAggregate(node: unknown, frame: unknown, open: string, close: string): void; _getNodeName(node: unknown): string };

let patched = false;

export function installCallSpreading(): void {
  if (patched) return;
  patched = true;
  nodeClasses();
  Object.assign(internals.runtime, { miniDbtSpreadArgs: spreadArgs, miniDbtSpreadKwargs: spreadKwargs, miniDbtCallArgs: callArgs });
  const proto = internals.compiler.Compiler.prototype;
  proto.compileMiniDbtStarArgs = function compileStarArgs(this: Compiler, node: Node, frame: unknown): void {
    this._emit('...runtime.miniDbtSpreadArgs(');
    this._compileExpression(node.value, frame);
    this._emit(')');
  };
  proto.compileMiniDbtStarKwargs = function compileStarKwargs(this: Compiler, node: Node, frame: unknown): void {
    this._emit('...runtime.miniDbtSpreadKwargs(');
    this._compileExpression(node.value, frame);
    this._emit(')');
  };
  // nunjucks' own compileFunCall writes the callee's name into a JavaScript string unescaped (a string
  // literal with a newline in `'a\nb'.split()` broke the compiled code); the name is JSON here.
  proto.compileFunCall = function compileSpreadingCall(this: Compiler, node: { name: unknown; args: { children: { children?: unknown[] }[] }; lineno: number; colno: number }, frame: unknown): void {
    const spreads = node.args.children.some((child) => isStar(child) || (child.children ?? []).some(isStar));
    this._emit(`(lineno = ${node.lineno}, colno = ${node.colno}, runtime.callWrap(`);
    this._compileExpression(node.name, frame);
    this._emit(`, ${JSON.stringify(this._getNodeName(node.name))}, context, `);
    if (spreads) this._emit('runtime.miniDbtCallArgs(');
    this._compileAggregate(node.args, frame, '[', ']');
    this._emit(spreads ? ')))' : '))');
  };
}

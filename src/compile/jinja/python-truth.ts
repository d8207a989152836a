import { internals, isSafeString, type CompilerInstance } from './nunjucks-internals.js';
import { isPlainDict, isPySet, isTuple } from './python-repr.js';

/** Python's __bool__ for a context object: `{% if adapter.behavior.flag %}` is the flag's setting, not "an object". */
export const PY_BOOL: unique symbol = Symbol('__bool__');

/** Python's truth of a value: empty lists, dicts and strings, 0, None and undefined are false. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object' && PY_BOOL in value) return Boolean((value as { [PY_BOOL]: () => unknown })[PY_BOOL]());
  if (isSafeString(value)) return String(value).length > 0;
  if (value instanceof Map || value instanceof Set) return value.size > 0;
  if (isPlainDict(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

const text = (v: unknown): unknown => (isSafeString(v) ? String(v) : v);
const numeric = (v: unknown): boolean => typeof v === 'number' || typeof v === 'boolean';

/** Python's `a == b`: by value for lists, tuples and dicts, sets whatever their order; 1 == True; a string never equals a number; none == undefined. */
export function pyEquals(left: unknown, right: unknown): boolean {
  const a = text(left);
  const b = text(right);
  if (a === b) return true;
  // JavaScript context functions give undefined where dbt's give None (config.get('missing')): the two are equal.
  if (a === undefined || b === undefined || a === null || b === null) return (a === undefined || a === null) && (b === undefined || b === null);
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (typeof a === 'string' || typeof b === 'string' || numeric(a) || numeric(b)) {
    // A relation or a date compares with its text, as it always has.
    const other = typeof a === 'object' ? a : typeof b === 'object' ? b : undefined;
    return other !== undefined && !Array.isArray(other) && !isPlainDict(other) ? a == b : false; // eslint-disable-line eqeqeq
  }
  if (isPySet(a) || isPySet(b)) {
    // Sets are equal when they hold the same items, in whatever order; a set never equals a list.
    return isPySet(a) && isPySet(b) && (a as unknown[]).length === (b as unknown[]).length && (a as unknown[]).every((item) => (b as unknown[]).some((other) => pyEquals(item, other)));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return isTuple(a) === isTuple(b) && a.length === b.length && a.every((item, i) => pyEquals(item, b[i]));
  }
  if (isPlainDict(a) && isPlainDict(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && pyEquals(a[k], b[k]));
  }
  return false;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case '==': return pyEquals(a, b);
    case '!=': return !pyEquals(a, b);
    case '<': return (text(a) as number) < (text(b) as number);
    case '>': return (text(a) as number) > (text(b) as number);
    case '<=': return (text(a) as number) <= (text(b) as number);
    case '>=': return (text(a) as number) >= (text(b) as number);
    default: throw new Error(`unknown comparison ${op}`);
  }
}

/** `a < b < c` as Python reads it: a < b and b < c. */
function compareChain(values: readonly unknown[], ops: readonly string[]): boolean {
  return ops.every((op, i) => compare(op, values[i], values[i + 1]));
}

type Node = { lineno: number; colno: number; typename: string };
type Compiler = CompilerInstance & { _compileExpression(node: unknown, frame: unknown): void };
let patched = false;
let Truthy: new (lineno: number, colno: number, target: unknown) => Node;

/** Compile `node.cond` of an if (tag or inline) as Python's truth of the condition. */
function withTruthyCondition(original: (this: unknown, node: { cond: Node }, ...rest: unknown[]) => void) {
  return function compileWithTruth(this: unknown, node: { cond: Node }, ...rest: unknown[]): void {
    const cond = node.cond;
    node.cond = new Truthy(cond.lineno, cond.colno, cond);
    try {
      original.call(this, node, ...rest);
    } finally {
      node.cond = cond;
    }
  };
}

/**
 * Python's truth and comparisons in templates: `{% if [] %}`, `not {}`, `a or b`
 * (the first true operand, as Python gives it), `[1] == [1]`, `{'a': 1} == {'a': 1}`,
 * `'1' == 1` false, and chained comparisons `1 < x < 3`.
 */
export function installPythonTruth(): void {
  if (patched) return;
  patched = true;
  const { runtime, nodes } = internals;
  Object.assign(runtime, {
    miniDbtTruthy: truthy,
    miniDbtCompareChain: compareChain,
    miniDbtOr: (a: unknown, b: () => unknown) => (truthy(a) ? a : b()),
    miniDbtAnd: (a: unknown, b: () => unknown) => (truthy(a) ? b() : a),
  });
  // An expression node (a Literal to nunjucks' type checks, its `value` the target) that compiles to Python's truth of its target.
  const literal = (nodes as unknown as { Literal: { extend(name: string): typeof Truthy } }).Literal;
  Truthy = literal.extend('MiniDbtTruthy');
  const proto = internals.compiler.Compiler.prototype;
  proto.compileMiniDbtTruthy = function compileTruthy(this: Compiler, node: { value: unknown }, frame: unknown): void {
    this._emit('runtime.miniDbtTruthy(');
    this._compileExpression(node.value, frame);
    this._emit(')');
  };
  proto.compileIf = withTruthyCondition(proto.compileIf as never);
  proto.compileInlineIf = withTruthyCondition(proto.compileInlineIf as never);
  proto.compileNot = function compileNot(this: Compiler, node: { target: unknown }, frame: unknown): void {
    this._emit('!runtime.miniDbtTruthy(');
    this._compileExpression(node.target, frame);
    this._emit(')');
  };
  const logical = (helper: string) =>
    function compileLogical(this: Compiler, node: { left: unknown; right: unknown }, frame: unknown): void {
      this._emit(`runtime.${helper}(`);
      this._compileExpression(node.left, frame);
      this._emit(', function () { return ');
      this._compileExpression(node.right, frame);
      this._emit('; })');
    };
  proto.compileOr = logical('miniDbtOr');
  proto.compileAnd = logical('miniDbtAnd');
  proto.compileCompare = function compileCompare(this: Compiler, node: { expr: unknown; ops: { type: string; expr: unknown }[] }, frame: unknown): void {
    this._emit('runtime.miniDbtCompareChain([');
    this._compileExpression(node.expr, frame);
    for (const op of node.ops) {
      this._emit(', ');
      this._compileExpression(op.expr, frame);
    }
    this._emit(`], ${JSON.stringify(node.ops.map((op) => op.type))})`);
  };
}

import { internals, isSafeString, type CompilerInstance } from './nunjucks-internals.js';
import { percentFormat, pythonStr } from './percent-format.js';
import { pythonTypeName } from './python-type-name.js';
import { tuple } from './python-repr.js';
import { dateArithmetic } from './py-datetime.js';
import { checkListLength, checkTextLength } from './resource-limits.js';

const isText = (v: unknown): boolean => typeof v === 'string' || isSafeString(v);
const isNumber = (v: unknown): boolean => typeof v === 'number' || typeof v === 'boolean';

/** Python's TypeError for an operator its operands do not support (never JavaScript's NaN or "[object Object]"). */
function unsupported(op: string, a: unknown, b: unknown): Error {
  if (op === '+' && isText(a)) return new TypeError(`can only concatenate str (not "${pythonTypeName(b)}") to str`);
  return new TypeError(`unsupported operand type(s) for ${op}: '${pythonTypeName(a)}' and '${pythonTypeName(b)}'`);
}

/** Python's `a + b`. */
export function pyAdd(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (typeof a === 'object' || typeof b === 'object') {
    const dated = dateArithmetic('+', a, b);
    if (dated !== undefined) return dated;
  }
  if (isText(a) && isText(b)) return String(a) + String(b);
  if (isNumber(a) && isNumber(b)) return (a as number) + (b as number);
  throw unsupported('+', a, b);
}

function subtract(a: unknown, b: unknown): unknown {
  if (typeof a === 'object' || typeof b === 'object') {
    const dated = dateArithmetic('-', a, b);
    if (dated !== undefined) return dated;
  }
  if (isNumber(a) && isNumber(b)) return (a as number) - (b as number);
  throw unsupported('-', a, b);
}

function repeatText(text: string, times: number): string {
  const n = Math.max(0, Math.floor(times));
  checkTextLength(text.length * n, `'...' * ${times}`);
  return text.repeat(n);
}

function repeatList(list: readonly unknown[], times: number): unknown[] {
  const n = Math.max(0, Math.floor(times));
  checkListLength(list.length * n, `[...] * ${times}`);
  return Array.from({ length: n }, () => list).flat();
}

function multiply(a: unknown, b: unknown): unknown {
  if (isText(a) && typeof b === 'number') return repeatText(String(a), b);
  if (typeof a === 'number' && isText(b)) return repeatText(String(b), a);
  if (Array.isArray(a) && typeof b === 'number') return repeatList(a, b);
  if (typeof a === 'number' && Array.isArray(b)) return repeatList(b, a);
  if (!isNumber(a) || !isNumber(b)) {
    if (isText(a) || isText(b) || Array.isArray(a) || Array.isArray(b)) throw new TypeError(`can't multiply sequence by non-int of type '${pythonTypeName(isText(a) || Array.isArray(a) ? b : a)}'`);
    throw unsupported('*', a, b);
  }
  return (a as number) * (b as number);
}

/** `'%s' % x` formats; numbers follow Python's modulo (the sign of the divisor). */
function modulo(a: unknown, b: unknown): unknown {
  if (isText(a)) return percentFormat(String(a), b);
  if (!isNumber(a) || !isNumber(b)) throw unsupported('%', a, b);
  const x = a as number;
  const y = b as number;
  const r = x % y;
  return r !== 0 && (r < 0) !== (y < 0) ? r + y : r;
}

/**
 * `a ~ b`: Jinja's concatenation, each side as Python's str() (none is 'None', true 'True', a list
 * `[1, 2]`), an undefined side (a missing key, `model.batch.id` outside a batch) empty as Jinja's
 * Undefined is: never JavaScript's 'undefined' or 'null'.
 */
function concat(a: unknown, b: unknown): string {
  const text = (v: unknown): string => (v === undefined ? '' : pythonStr(v));
  return text(a) + text(b);
}

let patched = false;

/**
 * Python semantics for `+ - * % ~` in templates: list + list concatenates,
 * 'ab' * 3 repeats, '%s' % x formats, and dates add timedeltas. nunjucks
 * compiles them to JavaScript operators; the patch routes them through these
 * helpers (numbers and strings give what they gave before), and `(a, b)`
 * builds a tuple (a list).
 */
export function installPythonOperators(): void {
  if (patched) return;
  patched = true;
  const { runtime } = internals;
  Object.assign(runtime, { miniDbtAdd: pyAdd, miniDbtSub: subtract, miniDbtMul: multiply, miniDbtMod: modulo, miniDbtConcat: concat });
  const proto = internals.compiler.Compiler.prototype;
  const emitCall = (helper: string) =>
    function compileOperator(this: CompilerInstance, node: { left: unknown; right: unknown }, frame: unknown): void {
      this._emit(`runtime.${helper}(`);
      this.compile(node.left, frame);
      this._emit(', ');
      this.compile(node.right, frame);
      this._emit(')');
    };
  proto.compileAdd = emitCall('miniDbtAdd');
  proto.compileSub = emitCall('miniDbtSub');
  proto.compileMul = emitCall('miniDbtMul');
  proto.compileMod = emitCall('miniDbtMod');
  proto.compileConcat = emitCall('miniDbtConcat');
  // A parenthesized group with commas is a tuple (not JavaScript's comma operator), and so are `()` and `(x,)`.
  Object.assign(runtime, { miniDbtTuple: tuple });
  const compileGroup = proto.compileGroup as (this: CompilerInstance, node: { children: unknown[] }, frame: unknown) => void;
  const compileArray = proto.compileArray as (this: CompilerInstance, node: { children: unknown[]; miniDbtTuple?: boolean }, frame: unknown) => void;
  const compileTuple = function compileTuple(this: CompilerInstance, node: { children: unknown[] }, frame: unknown): void {
    this._emit('runtime.miniDbtTuple(');
    compileArray.call(this, node, frame);
    this._emit(')');
  };
  proto.compileGroup = function compileTupleOrGroup(this: CompilerInstance, node: { children: unknown[] }, frame: unknown): void {
    if (node.children.length !== 1) compileTuple.call(this, node, frame);
    else compileGroup.call(this, node, frame);
  };
  proto.compileArray = function compileListOrTuple(this: CompilerInstance, node: { children: unknown[]; miniDbtTuple?: boolean }, frame: unknown): void {
    if (node.miniDbtTuple) compileTuple.call(this, node, frame);
    else compileArray.call(this, node, frame);
  };
}

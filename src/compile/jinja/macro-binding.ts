import { internals, type CompilerInstance } from './nunjucks-internals.js';
import { functionNames, tuple } from './python-repr.js';
import { withinMacroDepth } from './resource-limits.js';

/** What a parameter holds when the call gave it no value (its default applies, or it is undefined). */
const MISSING = Symbol('mini-dbt missing argument');

/** What a macro's body reads beyond its parameters, which decides what extra arguments it accepts (as Jinja decides). */
interface MacroShape {
  readonly varargs: boolean;
  readonly kwargs: boolean;
  readonly caller: boolean;
  /** `caller` is one of the macro's own parameters. */
  readonly explicitCaller: boolean;
}

interface AstNode {
  readonly typename: string;
  readonly fields: readonly string[];
  readonly lineno: number;
  readonly colno: number;
  readonly value?: unknown;
  readonly children?: AstNode[];
}

/** The special names (varargs, kwargs, caller) read anywhere in a macro's body. */
function specialNamesRead(body: unknown): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (node === null || typeof node !== 'object' || !('typename' in node)) return;
    const n = node as AstNode;
    if (n.typename === 'Symbol' && (n.value === 'varargs' || n.value === 'kwargs' || n.value === 'caller')) found.add(n.value);
    // Every child, declared field or not (a set block's body is not one of Set's fields).
    for (const child of Object.values(n)) if (child !== null && typeof child === 'object') visit(child);
  };
  visit(body);
  return found;
}

const hasOwn = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

/**
 * A macro as Jinja calls one: positional arguments first, then keyword
 * arguments fill the parameters still unset; extra positional arguments go
 * to `varargs` (a tuple) and extra keyword arguments to `kwargs` (a dict)
 * when the body reads those names, and are Jinja's TypeError otherwise.
 * `body` receives one value per parameter (MISSING when not given), then
 * varargs, kwargs and caller.
 */
export function bindMacro(name: string, params: readonly string[], shape: MacroShape, body: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  const count = params.length;
  const macro = function macro(this: unknown, ...callArgs: unknown[]): unknown {
    const last = callArgs[callArgs.length - 1] as Record<string, unknown> | undefined;
    const keywordsGiven = last !== null && typeof last === 'object' && hasOwn(last, '__keywords');
    const given = keywordsGiven ? callArgs.length - 1 : callArgs.length;
    const values = new Array<unknown>(count);
    for (let i = 0; i < count; i++) values[i] = i < given ? callArgs[i] : MISSING;
    // The caller is found among the parameters still unset by position (or `caller` is one given by position).
    const foundCaller = given < count ? params.indexOf('caller', given) >= 0 : shape.explicitCaller;
    const takesCaller = shape.caller && !foundCaller;
    // Keywords fill the parameters still unset; the rest are kwargs, in the order given. Only a call
    // with keywords builds them one by one (defined, not assigned: a keyword named __proto__ is an
    // item of kwargs, never its prototype); a body that reads no kwargs gets an empty dict it never reads.
    const keywords: Record<string, unknown> = shape.kwargs || keywordsGiven ? {} : NO_KEYWORDS;
    let extra: string | undefined;
    let extraCaller = false;
    let caller: unknown;
    if (keywordsGiven) {
      for (const key of Object.keys(last)) {
        if (key === '__keywords') continue;
        const at = given < count ? params.indexOf(key, given) : -1;
        if (at >= 0) values[at] = last[key];
        else if (key === 'caller' && takesCaller) caller = last[key] !== null ? last[key] : undefined;
        else {
          Object.defineProperty(keywords, key, { value: last[key], writable: true, enumerable: true, configurable: true });
          extra ??= key;
          if (key === 'caller') extraCaller = true;
        }
      }
    }
    if (!shape.kwargs && extra !== undefined) {
      if (extraCaller) throw new TypeError(`macro '${name}' was invoked with two values for the special caller argument. This is most likely a bug.`);
      throw new TypeError(`macro '${name}' takes no keyword argument '${extra}'`);
    }
    if (!shape.varargs && given > count) throw new TypeError(`macro '${name}' takes not more than ${count} argument(s)`);
    // A body that reads no varargs never gets any (more arguments than parameters failed above).
    const varargs = shape.varargs ? tuple(callArgs.slice(count, given)) : NO_VARARGS;
    return withinMacroDepth(() => body.call(this, ...values, varargs, keywords, caller));
  };
  MACRO_NAMES.set(macro, name);
  return macro;
}

/** What a body that reads neither varargs nor kwargs is given for them (it never reads them). */
const NO_VARARGS: readonly unknown[] = Object.freeze(tuple([]));
const NO_KEYWORDS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

const MACRO_NAMES = new WeakMap<object, string>();

/** The name of a macro made by bindMacro (undefined for any other function). */
export const macroName = (fn: unknown): string | undefined => (typeof fn === 'function' ? MACRO_NAMES.get(fn) : undefined);

type Compiler = CompilerInstance & {
  _tmpid(): string;
  _emitLines(...lines: string[]): void;
  _pushBuffer(): string;
  _popBuffer(): void;
  _withScopedSyntax(fn: () => void): void;
  _compileExpression(node: unknown, frame: unknown): void;
  assertType(node: unknown, ...types: unknown[]): void;
};
type CompileFrame = { set(name: string, value: string): void; push(isolate: boolean): CompileFrame };
type MacroNode = { name: { value: string }; args: { children: AstNode[] }; body: unknown; typename: string };

let patched = false;

/**
 * Compile `{% macro %}` and call blocks' callers with Jinja's argument rules
 * (bindMacro): `varargs`, `kwargs`, `caller`, defaults that read earlier
 * parameters, missing arguments undefined. Replaces nunjucks' _compileMacro;
 * the emitted function keeps the shape return-value.ts expects (its first
 * line `var callerFrame = frame;`, its last the SafeString return).
 */
export function installMacroBinding(): void {
  if (patched) return;
  patched = true;
  const { runtime, nodes } = internals;
  Object.assign(runtime, { miniDbtBindMacro: bindMacro, miniDbtMissing: MISSING });
  functionNames.macro = macroName;
  const Frame = (runtime as unknown as { Frame: new () => CompileFrame }).Frame;
  const { Dict, Symbol: SymbolNode } = nodes as unknown as { Dict: new () => object; Symbol: new () => object };
  const proto = internals.compiler.Compiler.prototype;
  proto._compileMacro = function compileMacro(this: Compiler, node: MacroNode, frame?: CompileFrame): string {
    const keepFrame = frame !== undefined;
    const nameNode = node.name as unknown as AstNode;
    if (node.typename !== 'Caller' && nameNode.typename !== 'Symbol') {
      (this as unknown as { fail(m: string, l: number, c: number): never }).fail(`expected token 'name', got '${String(nameNode.value)}'`, nameNode.lineno, nameNode.colno);
    }
    const positional: AstNode[] = [];
    let defaults: { children: { key: AstNode; value: unknown }[] } | undefined;
    node.args.children.forEach((arg, i) => {
      if (i === node.args.children.length - 1 && arg instanceof Dict) defaults = arg as unknown as typeof defaults;
      else {
        this.assertType(arg, SymbolNode);
        positional.push(arg);
      }
    });
    const params = [...positional.map((a) => String(a.value)), ...(defaults?.children ?? []).map((p) => String(p.key.value))];
    const defaultOf = new Map((defaults?.children ?? []).map((p) => [String(p.key.value), p.value]));
    const read = specialNamesRead(node.body);
    const shape: MacroShape = { varargs: read.has('varargs'), kwargs: read.has('kwargs'), caller: read.has('caller'), explicitCaller: params.includes('caller') };
    const macroName = node.typename === 'Caller' ? 'caller' : node.name.value;
    const funcId = `macro_${this._tmpid()}`;
    const locals = params.map((_p, i) => `l_${i}`);
    this._emitLines(
      `var ${funcId} = runtime.miniDbtBindMacro(${JSON.stringify(macroName)}, ${JSON.stringify(params)}, ${JSON.stringify(shape)}, `,
      `function (${[...locals, 'l_varargs', 'l_kwargs', 'l_caller'].join(', ')}) {`,
      'var callerFrame = frame;',
      `frame = ${keepFrame ? 'frame.push(true);' : 'new runtime.Frame();'}`,
    );
    const bodyFrame = keepFrame ? frame!.push(true) : new Frame();
    params.forEach((param, i) => {
      const local = locals[i]!;
      // A default is evaluated in order, so it can read the parameters before it.
      this._emit(`if (${local} === runtime.miniDbtMissing) ${local} = `);
      if (defaultOf.has(param)) this._compileExpression(defaultOf.get(param), bodyFrame);
      else this._emit('undefined');
      this._emitLine(';');
      this._emitLine(`frame.set(${JSON.stringify(param)}, ${local});`);
      bodyFrame.set(param, local);
    });
    if (shape.varargs) this._emitLine('frame.set("varargs", l_varargs);');
    if (shape.kwargs) this._emitLine('frame.set("kwargs", l_kwargs);');
    if (shape.caller && !shape.explicitCaller) this._emitLine('frame.set("caller", l_caller);');
    const bufferId = this._pushBuffer();
    this._withScopedSyntax(() => this.compile(node.body, bodyFrame));
    this._emitLine(`frame = ${keepFrame ? 'frame.pop();' : 'callerFrame;'}`);
    this._emitLine(`return new runtime.SafeString(${bufferId});`);
    this._emitLine('});');
    this._popBuffer();
    return funcId;
  };
}

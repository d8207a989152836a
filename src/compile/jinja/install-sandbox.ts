import { pythonSlice } from './python-slice.js';
import type nunjucks from 'nunjucks';
import { internals, type CompilerInstance } from './nunjucks-internals.js';
import { sandboxedRange, withinMacroDepth } from './resource-limits.js';
import { pythonStr } from './python-repr.js';
import { guardName, guardValue, keyText, readAttribute } from './sandbox-policy.js';

type Lookup = (this: unknown, ...args: unknown[]) => unknown;

let patched = false;

/**
 * Put nunjucks' runtime behind the sandbox (sandbox-policy.ts), once per
 * process and outermost, so every template path (models, both render
 * passes, macros, tests, hooks, yml) goes through it:
 * - attribute reads (`a.b`, `a['b']`, the member helpers of lists and
 *   dicts, Python string methods) check the attribute and the value found;
 * - bare names never resolve to what every object inherits;
 * - calls refuse intrinsics and never hand one back;
 * - each macro call counts against the recursion limit;
 * - dict literals make their keys own items (`{'__proto__': x}` is a key,
 *   not a prototype).
 * Call after the other runtime patches (Jinja compat, string methods,
 * callable namespaces), so this one wraps them all.
 */
export function installSandbox(): void {
  if (patched) return;
  patched = true;
  const runtime = internals.runtime as Record<string, Lookup>;

  const memberLookup = runtime.memberLookup!;
  runtime.memberLookup = function sandboxedMemberLookup(this: unknown, obj: unknown, key: unknown, ...rest: unknown[]): unknown {
    // A slice (`x[1:3]`) passes four arguments and reads only indexes: Python's slice, not nunjucks'.
    if (rest.length >= 2) return guardValue(pythonSlice(obj, key, rest[0], rest[1]));
    readAttribute(obj, key);
    const itemReader = dictItemReader(obj, key);
    if (itemReader) return itemReader;
    return guardValue(memberLookup.call(this, obj, key, ...rest));
  };

  const contextOrFrameLookup = runtime.contextOrFrameLookup!;
  runtime.contextOrFrameLookup = function sandboxedNameLookup(this: unknown, context: unknown, frame: unknown, name: unknown): unknown {
    return guardName(String(name), contextOrFrameLookup.call(this, context, frame, name));
  };

  const callWrap = runtime.callWrap!;
  runtime.callWrap = function sandboxedCall(this: unknown, fn: unknown, ...rest: unknown[]): unknown {
    guardValue(fn);
    return guardValue(callWrap.call(this, fn, ...rest));
  };

  const makeMacro = runtime.makeMacro!;
  runtime.makeMacro = function sandboxedMakeMacro(this: unknown, argNames: unknown, kwargNames: unknown, body: unknown): unknown {
    const counted = function countedMacro(this: unknown, ...args: unknown[]): unknown {
      return withinMacroDepth(() => (body as Lookup).apply(this, args));
    };
    return makeMacro.call(this, argNames, kwargNames, counted);
  };

  boundAggregateRetries();

  const proto = internals.compiler.Compiler.prototype;
  // An attribute read records its position, as a call does, so a refused attribute is reported on its own line.
  // (A slice's key compiles to three arguments, so it is left as it is: slices read only indexes.)
  proto.compileLookupVal = function compileLocatedLookup(this: CompilerInstance & { _compileExpression(node: unknown, frame: unknown): void }, node: { target: unknown; val: { typename?: string } | null; lineno: number; colno: number }, frame: unknown): void {
    // `x[]`: nothing to look up (nunjucks would fail compiling it with a JavaScript TypeError).
    const val = node.val;
    if (!val) return (this as unknown as { fail(m: string, l: number, c: number): never }).fail("expected an expression, got ']'", node.lineno, node.colno);
    const slice = val.typename === 'Slice';
    this._emit('runtime.memberLookup((');
    this._compileExpression(node.target, frame);
    this._emit(slice ? '),' : `),(lineno = ${node.lineno}, colno = ${node.colno}, `);
    this._compileExpression(val, frame);
    this._emit(slice ? ')' : '))');
  };
  const compilePair = proto.compilePair as (this: unknown, node: unknown, frame: unknown) => void;
  proto.compilePair = function compileOwnKeyPair(this: CompilerInstance & { _compileExpression(node: unknown, frame: unknown): void }, node: { key: { typename?: string; value: unknown }; value: unknown; miniDbtComputedKey?: boolean }, frame: unknown): void {
    if (typeof node.key.value !== 'string' && !node.miniDbtComputedKey) return compilePair.call(this, node, frame);
    // A computed key defines an own property, whatever its name; a name or an expression as key is its value, as in Jinja.
    if (!node.miniDbtComputedKey || (node.key.typename === 'Literal' && typeof node.key.value === 'string')) this._emit(`[${JSON.stringify(node.key.value)}]: `);
    else {
      this._emit('[runtime.miniDbtDictKey(');
      this._compileExpression(node.key, frame);
      this._emit(')]: ');
    }
    this._compileExpression(node.value, frame);
  };
  Object.assign(internals.runtime, { miniDbtDictKey: dictKey });
}

/** A computed dict key as the object key it becomes (none, true and false as Python writes them). */
function dictKey(key: unknown): string {
  if (key === null || key === undefined || typeof key === 'boolean') return pythonStr(key);
  return keyText(key);
}

type ParserState = { tokens: { index: number }; peeked: unknown };

/**
 * Jinja compat parses `[` ... `]` as a list and, when that fails, again as a
 * slice: nested brackets with an error deep inside are parsed 2^depth times
 * (20 levels: minutes). Each start position now fails at most once per
 * parse: a second attempt at a position that already failed throws the same
 * error at once, so a broken template fails in linear time.
 */
function boundAggregateRetries(): void {
  const parser = internals.parser.Parser.prototype;
  const parseAggregate = parser.parseAggregate as (this: ParserState) => unknown;
  const failed = new WeakMap<object, Map<string, unknown>>();
  parser.parseAggregate = function parseAggregateOnce(this: ParserState): unknown {
    const key = `${this.tokens.index}${this.peeked ? '+' : ''}`;
    const seen = failed.get(this.tokens);
    if (seen?.has(key)) throw seen.get(key);
    try {
      return parseAggregate.call(this);
    } catch (err) {
      if (seen) seen.set(key, err);
      else failed.set(this.tokens, new Map([[key, err]]));
      throw err;
    }
  };
}

const hasItem = (dict: object, key: unknown): boolean => Object.prototype.hasOwnProperty.call(dict, String(key));

/**
 * Jinja's dict.get / pop / setdefault, reading items only: nunjucks' own
 * versions read any property, so `{}.get('constructor')` would hand back
 * JavaScript's Object where Jinja gives none.
 */
const DICT_ITEM_READERS: Readonly<Record<string, (dict: Record<string, unknown>) => (...args: unknown[]) => unknown>> = {
  get: (dict) => (key, fallback = null) => (hasItem(dict, key) ? dict[String(key)] : fallback),
  pop: (dict) => (key, ...fallback) => {
    if (hasItem(dict, key)) {
      const value = dict[String(key)];
      delete dict[String(key)];
      return value;
    }
    if (fallback.length > 0) return fallback[0];
    throw new Error(`KeyError: ${String(key)}`);
  },
  setdefault: (dict) => (key, fallback = null) => {
    if (!hasItem(dict, key)) Object.defineProperty(dict, String(key), { value: fallback, writable: true, enumerable: true, configurable: true });
    return dict[String(key)];
  },
};

function dictItemReader(obj: unknown, key: unknown): ((...args: unknown[]) => unknown) | undefined {
  if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(DICT_ITEM_READERS, key)) return undefined;
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || hasItem(obj, key)) return undefined;
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  return DICT_ITEM_READERS[key]!(obj as Record<string, unknown>);
}

/** The sandbox's globals and filters of one environment: a bounded range() and Jinja's attr filter. */
export function installSandboxGlobals(env: nunjucks.Environment): void {
  env.addGlobal('range', sandboxedRange);
  env.addFilter('attr', (obj: unknown, name: unknown) => (internals.runtime.memberLookup as (o: unknown, k: unknown) => unknown)(obj, name));
}

import { internals, type CompilerInstance } from './nunjucks-internals.js';
import { loopItems, loopPairs, makeLoop } from './loop-context.js';
import { truthy } from './python-truth.js';

type Token = { value: string; lineno: number; colno: number };
type AstNode = { typename: string; lineno: number; colno: number; value?: unknown; children?: AstNode[] };
interface ForNode extends AstNode {
  name: AstNode;
  arr: AstNode & { cond?: AstNode; body?: AstNode; else_?: AstNode | null };
  body: AstNode;
  else_?: AstNode | null;
  miniDbtFilter?: AstNode;
  miniDbtRecursive?: boolean;
}
interface Parser {
  peekToken(): Token;
  skipSymbol(name: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
}
type CompileFrame = { set(name: string, id: string): void; push(isolate?: boolean): CompileFrame };
type Compiler = CompilerInstance & {
  _tmpid(): string;
  _pushBuffer(): string;
  _popBuffer(): void;
  buffer: string;
  _withScopedSyntax(fn: () => void): void;
  _compileExpression(node: unknown, frame: unknown): void;
};

let patched = false;

/**
 * Jinja's for loop: `loop` with cycle(), changed(), previtem, nextitem,
 * depth (loop-context.ts); a filter `{% for x in xs if x.on %}` (loop
 * counters count the kept items); `recursive` loops whose body calls
 * `loop(children)`; a dict walks its keys and a string its characters;
 * a `{% set %}` in the body stays in the loop, as in Jinja.
 * The loop compiles to a JavaScript function (called again for each
 * `loop(...)` of a recursive loop) that returns the text it renders.
 */
export function installForLoops(): void {
  if (patched) return;
  patched = true;
  Object.assign(internals.runtime, { miniDbtLoopItems: loopItems, miniDbtPairs: loopPairs, miniDbtLoop: makeLoop, miniDbtTruthy: truthy });

  const parserProto = internals.parser.Parser.prototype as Record<string, unknown>;
  const parseFor = parserProto.parseFor as (this: Parser) => ForNode;
  parserProto.parseFor = function parseJinjaFor(this: Parser): ForNode {
    // The body is parsed by nunjucks; `if` (read as an inline if) and `recursive` are taken off the loop's header here.
    const peekRecursive = this as Parser & { advanceAfterBlockEnd(name?: string): void };
    const advance = peekRecursive.advanceAfterBlockEnd;
    let recursive = false;
    peekRecursive.advanceAfterBlockEnd = function advanceAfterForHeader(this: Parser, name?: string): void {
      peekRecursive.advanceAfterBlockEnd = advance;
      if (name === 'for' && this.skipSymbol('recursive')) recursive = true;
      advance.call(this, name);
    };
    let node: ForNode;
    try {
      node = parseFor.call(this);
    } finally {
      peekRecursive.advanceAfterBlockEnd = advance;
    }
    if (node.typename === 'For') {
      if (node.arr.typename === 'InlineIf' && !node.arr.else_) {
        node.miniDbtFilter = node.arr.cond;
        node.arr = node.arr.body as ForNode['arr'];
      }
      node.miniDbtRecursive = recursive;
    }
    return node;
  };

  const proto = internals.compiler.Compiler.prototype;
  proto.compileFor = function compileJinjaFor(this: Compiler, node: ForNode, frame: CompileFrame): void {
    const names = node.name.typename === 'Array' ? (node.name.children ?? []).map((c) => String(c.value)) : [String(node.name.value)];
    const fn = this._tmpid();
    const items = this._tmpid();
    const depth = this._tmpid();
    const i = this._tmpid();
    const loop = this._tmpid();
    const item = this._tmpid();
    // Bind the loop's names to one item at runtime (a dict with two names walks its key/value pairs, as nunjucks did).
    const bind = (value: string): void => {
      if (names.length === 1) this._emitLine(`frame.set(${JSON.stringify(names[0])}, ${value});`);
      else names.forEach((name, k) => this._emitLine(`frame.set(${JSON.stringify(name)}, ${value} == null ? undefined : ${value}[${k}]);`));
    };
    this._emitLine(`var ${fn} = function (${items}, ${depth}) {`);
    const bodyBuffer = this._pushBuffer();
    this._emitLine('');
    // As Jinja scopes a loop: a `{% set %}` inside it does not change the variable outside (namespace() does).
    this._emitLine('frame = frame.push(true);');
    if (names.length === 2) {
      this._emitLine(`${items} = runtime.miniDbtPairs(${items});`);
    } else {
      this._emitLine(`${items} = runtime.miniDbtLoopItems(${items});`);
    }
    if (node.miniDbtFilter) {
      const filterFrame = frame.push();
      this._emitLine(`${items} = ${items}.filter(function (${item}) {`);
      this._emitLine('frame = frame.push();');
      bind(item);
      this._emit(`var ${i} = runtime.miniDbtTruthy(`);
      this._compileExpression(node.miniDbtFilter, filterFrame);
      this._emitLine(');');
      this._emitLine('frame = frame.pop();');
      this._emitLine(`return ${i}; });`);
    }
    this._emitLine(`var ${loop} = runtime.miniDbtLoop(${items}, ${depth}, ${node.miniDbtRecursive ? fn : 'null'});`);
    this._emitLine(`for (var ${i} = 0; ${i} < ${items}.length; ${i}++) {`);
    this._emitLine(`var ${item} = ${items}[${i}];`);
    this._emitLine(`${loop}.index0 = ${i};`);
    bind(item);
    this._emitLine(`frame.set("loop", ${loop});`);
    const bodyFrame = frame.push();
    this._withScopedSyntax(() => this.compile(node.body, bodyFrame));
    this._emitLine('}');
    if (node.else_) {
      this._emitLine(`if (!${items}.length) {`);
      this._withScopedSyntax(() => this.compile(node.else_, bodyFrame));
      this._emitLine('}');
    }
    this._emitLine('frame = frame.pop();');
    this._emitLine(`return ${bodyBuffer};`);
    this._popBuffer();
    this._emitLine('};');
    this._emit(`${this.buffer} += ${fn}(`);
    this._compileExpression(node.arr, frame);
    this._emitLine(', 1);');
  };
}

import nunjucks from 'nunjucks';

/** The parts of nunjucks' internals the Jinja extensions patch (untyped in @types/nunjucks). */
export interface CompilerInstance {
  _emit(code: string): void;
  _emitLine(code: string): void;
  compile(node: unknown, frame: unknown): void;
}

export interface ParserInstance {
  nextToken(): { value: string; lineno: number; colno: number };
  parseSignature(tolerant: boolean | null, noParens: boolean): unknown;
  advanceAfterBlockEnd(name?: string): void;
}

export interface NodesModule {
  Node: { extend(name: string, props: { fields: string[] }): new (lineno: number, colno: number) => object };
  CallExtension: new (ext: object, prop: string, args: unknown, contentArgs: unknown[]) => object;
}

interface Internals {
  compiler: {
    compile: (...args: unknown[]) => string;
    Compiler: { prototype: Record<string, unknown> };
  };
  nodes: NodesModule;
  parser: {
    Parser: { prototype: Record<string, unknown> };
  };
  runtime: Record<string, unknown> & {
    SafeString: new (s: string) => object;
    /** A render failure at a 0-based line and column, as a TemplateError (kept as is when it has a line). */
    handleError(error: unknown, lineno: number, colno: number): Error;
  };
  lib: {
    /** The error Template.render throws: the message prefixed with the template path and position. */
    _prettifyError(path: string, withInternals: boolean, error: Error): Error;
  };
}

export const internals = nunjucks as unknown as Internals;
export const nunjucksLib = internals.lib;

/** Whether a value is a nunjucks SafeString (a macro's output). */
export function isSafeString(value: unknown): boolean {
  return value instanceof internals.runtime.SafeString;
}

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
 * Here those constants are parameters: while a template compiles, every
 * Literal and TemplateData (the text between tags) is written as `__L[k]`,
 * and every node's line and column (which the code stores for error
 * messages) too, with the values collected in order. The code is then a
 * function of the template's structure alone and is the key of a cache of
 * `new Function('__L', code)` factories: a template whose code was seen
 * before costs one call of its factory with its own values (the closures of
 * the shared, already compiled and warm functions). Anything nunjucks or the
 * extensions write from a literal's value other than through compileLiteral
 * (a dict key, a callee's name in an error message, an included template's
 * name) stays in the code, so it is part of the key and never shared
 * wrongly. Templates cannot reach `__L`: names in a template compile to
 * frame and context lookups, never to JavaScript identifiers.
 *
 * A template that fails to compile this way is compiled as nunjucks does
 * (its error is nunjucks' own, with its positions).
 */

interface CompilerInternals {
  _emit(code: string): void;
}

type NodeLike = { lineno: unknown; colno: unknown };

/** The values of the template compiling now (null when compiling without parameters). */
let collecting: unknown[] | null = null;
let patched = false;

function installParameterisedCompile(): void {
  if (patched) return;
  patched = true;
  const proto = internals.compiler.Compiler.prototype;
  const compileLiteral = proto.compileLiteral as (this: CompilerInternals, node: { value: unknown }, frame: unknown) => void;
  proto.compileLiteral = function compileLiteralParameter(this: CompilerInternals, node: { value: unknown }, frame: unknown): void {
    if (!collecting) return compileLiteral.call(this, node, frame);
    this._emit(`__L[${collecting.push(node.value) - 1}]`);
  };
  const compileRoot = proto.compileRoot as (this: unknown, node: unknown, frame: unknown) => void;
  proto.compileRoot = function compileRootWithPositions(this: unknown, node: unknown, frame: unknown): void {
    if (collecting) parameterisePositions(node, collecting);
    return compileRoot.call(this, node, frame);
  };
}

/** `__L[k]`, made once per k. */
const parameterNames: string[] = [];
const parameter = (k: number): string => (parameterNames[k] ??= `__L[${k}]`);

/** Every node's line and column becomes `__L[k]` (the code writes them into its text as they are). */
function parameterisePositions(root: unknown, values: unknown[]): void {
  const Node = (internals.nodes as unknown as { Node: new () => object }).Node;
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!(value instanceof Node)) return;
    const node = value as NodeLike & Record<string, unknown>;
    if (typeof node.lineno === 'string') return; // reached twice (a node shared by two parents)
    node.lineno = parameter(values.push(node.lineno) - 1);
    node.colno = parameter(values.push(node.colno) - 1);
    // Its fields and whatever else an extension hung on it.
    for (const key of Object.keys(node)) if (key !== 'lineno' && key !== 'colno') visit(node[key]);
  };
  visit(root);
}

type Factory = (values: readonly unknown[]) => Record<string, unknown>;

/** The compiled code of one environment's templates, by code (see the file comment). */
export class SharedTemplateCode {
  private readonly factories = new Map<string, Factory>();
  /** How many templates were compiled, and how many of them needed code of their own (for the bench). */
  compiled = 0;
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
    const env = this.env as unknown as { asyncFilters: unknown; extensionsList: unknown; opts: unknown };
    const values: unknown[] = [];
    let code: string;
    collecting = values;
    try {
      code = internals.compiler.compile(source, env.asyncFilters, env.extensionsList, path, env.opts);
    } catch {
      return null; // compiled again without parameters, for nunjucks' own error
    } finally {
      collecting = null;
    }
    let factory = this.factories.get(code);
    if (!factory) {
      try {
        factory = new Function('__L', code) as Factory; // eslint-disable-line no-new-func
      } catch {
        return null;
      }
      this.factories.set(code, factory);
      this.distinct += 1;
    }
    return factory(values);
  }
}

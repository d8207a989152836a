import nunjucks from 'nunjucks';
import { ProjectError } from '../errors/project-error.js';
import { builtinMacroNameProblem } from './builtin-macro-names.js';
import type { DispatchOrder, MacroFile } from '../project/project.js';
import { installPythonStringMethods } from './python-string-methods.js';
import { CONTEXT_NAMES, RenderContext } from './render-context.js';
import type { RenderState } from './render-state.js';
import { templateError } from './template-error.js';
import { BUILTIN_GENERIC_TESTS } from './jinja/builtin-generic-tests.js';
import { GLOBAL_PROJECT_MACROS } from './global-project/global-project-macros.js';
import { ADAPTER_SHIM_MACROS, SHIM_PACKAGE, SHIMMED_MACROS } from './adapter-shims/adapter-shim-macros.js';
import { installJinjaExtensions } from './jinja/install-jinja-extensions.js';
import { installSandbox, installSandboxGlobals } from './jinja/install-sandbox.js';
import { guardName } from './jinja/sandbox-policy.js';
import { internals, nunjucksLib } from './jinja/nunjucks-internals.js';
import { preprocessTemplate } from './jinja/preprocess-template.js';
import { parseSimpleTemplate, renderSimpleTemplate, type SimpleTemplate } from './jinja/simple-template.js';
import { captureSimpleTemplate, type CaptureSink, type StaticNames } from './jinja/static-capture.js';
import { inertMacrosOf, nunjucksParse, type InertMacro } from './jinja/inert-macros.js';
import { SharedTemplateCode } from './jinja/shared-template-code.js';
import { ByPathAndSource } from './jinja/by-path-and-source.js';
import { installTrailingCommas } from './jinja/trailing-commas.js';
import { installPrivateMacroExports } from './jinja/export-private-macros.js';
import { installClassMethodsFirst } from './jinja/class-methods-first.js';
import type { MacroLookup } from './jinja/adapter-context.js';
import { GLOBAL_PROJECT, MacroNamespaces } from './macro-namespaces.js';
import { declaredMacroNames } from './declared-macro-names.js';

let compatInstalled = false;

/** dbt's global project, package `dbt`: the built-in generic tests and the cross-database macros. */
const GLOBAL_PROJECT_FILES: readonly MacroFile[] = [BUILTIN_GENERIC_TESTS, ...GLOBAL_PROJECT_MACROS];

export interface JinjaEnvironmentOptions {
  /** `simple: false` sends every template through nunjucks (the differential tests compare both). */
  readonly simple?: boolean;
  /** `sharedCode: false` compiles every nunjucks template to code of its own (the differential tests compare both). */
  readonly sharedCode?: boolean;
  /** `staticCapture: false` renders every model in pass 1 (the differential tests compare both; see static-capture.ts). */
  readonly staticCapture?: boolean;
  /** The root project's name: its macros are visible unqualified everywhere and as `<name>.macro`. */
  readonly rootPackage?: string;
  /** Installed packages (dispatch searches them even when they define no macro). */
  readonly packages?: readonly string[];
  /** The root project's `dispatch:` search orders. */
  readonly dispatch?: readonly DispatchOrder[];
}

/**
 * One nunjucks environment per compile session. Macros from macros/*.sql
 * become globals (no import needed); the dbt context (ref, var, this, ...)
 * is exposed through getters that read the render in progress, so macros see
 * the model that calls them.
 */
export class JinjaEnvironment {
  readonly env: nunjucks.Environment;
  private current?: RenderContext;
  private readonly templates = new ByPathAndSource<nunjucks.Template>();
  private readonly simpleTemplates = new ByPathAndSource<SimpleTemplate | null>();
  /** Compiled code shared by the templates that differ only in their literals (see shared-template-code.ts). */
  readonly sharedCode: SharedTemplateCode;
  readonly macroNames: string[] = [];

  /** The macros of every package (dbt's global project, the root project, installed packages). */
  readonly namespaces: MacroNamespaces;
  /** Installed packages' compile-on-first-call files, each compiling once (parse compiles them all). */
  private readonly packageFiles: (() => unknown)[] = [];
  /** The node being rendered (its package's macros come first unqualified). */
  private currentState?: RenderState;
  /** The root project's macro files (static-capture.ts reads which of their macros are inert). */
  private readonly rootMacroFiles: MacroFile[] = [];
  private inertMacros?: Map<string, InertMacro>;

  /** `simple: false` sends every template through nunjucks (the differential tests compare both). */
  constructor(macros: readonly MacroFile[], private readonly options: JinjaEnvironmentOptions = {}) {
    if (!compatInstalled) {
      // Before Jinja compat, whose slices wrap the parseAggregate it finds.
      installTrailingCommas();
      nunjucks.installJinjaCompat();
      installPythonStringMethods();
      installPrivateMacroExports();
      installClassMethodsFirst();
      compatInstalled = true;
    }
    this.env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
    installJinjaExtensions(this.env);
    installSandbox();
    installSandboxGlobals(this.env);
    this.sharedCode = new SharedTemplateCode(this.env);
    for (const name of CONTEXT_NAMES) {
      Object.defineProperty((this.env as unknown as { globals: object }).globals, name, {
        get: () => (this.current as Record<string, unknown> | undefined)?.[name],
        enumerable: true,
        configurable: true,
      });
    }
    this.namespaces = new MacroNamespaces(options.rootPackage ?? '', options.dispatch, SHIMMED_MACROS);
    for (const pkg of options.packages ?? []) this.namespaces.declare(pkg);
    this.loadMacros([...GLOBAL_PROJECT_FILES, ...ADAPTER_SHIM_MACROS, ...macros]);
  }

  /**
   * Every macro file into its package's namespace, then the names exposed
   * (see exposeMacros). The root project's files are compiled now, so a
   * syntax error stops the load; dbt's own and installed packages' files
   * (dbt_utils is some 100 KB of templates) are compiled the first time one
   * of their macros is called: each name stands for a function that
   * compiles its file then.
   */
  private loadMacros(macros: readonly MacroFile[]): void {
    const origin = new Map<string, string>();
    const globals = (this.env as unknown as { globals: Record<string, unknown> }).globals;
    const builtins = new Set(Object.keys(globals));
    const root = this.namespaces.rootPackage;
    for (const file of macros) {
      const pkg = GLOBAL_PROJECT_FILES.includes(file) ? GLOBAL_PROJECT : file.package ?? root;
      const declared = pkg === root ? undefined : declaredMacroNames(file.source);
      if (pkg === root) this.rootMacroFiles.push(file);
      const exported: Record<string, unknown> = declared ? this.lazyExports(file, declared) : this.compileExports(file);
      for (const [name, fn] of Object.entries(exported)) {
        if (typeof fn !== 'function') continue; // a top-level {% set %} is no macro
        const key = `${pkg}\u0000${name}`;
        if (!this.namespaces.add(pkg, name, fn as (...args: unknown[]) => unknown)) {
          // Two packages may share a name (each has its namespace); one package may not define it twice.
          throw new ProjectError(`macro '${name}' is defined twice: in ${origin.get(key)} and ${file.path}`, {
            location: { file: file.path },
            hint: pkg === root ? undefined : `both files are in the package '${pkg}'`,
          });
        }
        origin.set(key, file.path);
        if (pkg !== GLOBAL_PROJECT) {
          const problem = builtinMacroNameProblem(name, builtins, file);
          if (problem) throw problem;
        }
        if (pkg === root) this.macroNames.push(name);
      }
    }
    this.exposeMacros(globals, builtins);
  }

  /** Compile a macro file and return what it exports (its macros by name). */
  private compileExports(file: MacroFile): Record<string, unknown> {
    let template: nunjucks.Template;
    try {
      template = new nunjucks.Template(preprocessTemplate(file.source), this.env, file.path, true);
    } catch (err) {
      throw templateError(err, file.path);
    }
    let exported: Record<string, unknown> = {};
    (template as unknown as { getExported(ctx: object, frame: null, cb: (err: Error | null, exp: Record<string, unknown>) => void): void })
      .getExported({}, null, (err, exp) => {
        if (err) throw templateError(err, file.path);
        exported = exp;
      });
    return exported;
  }

  /** Stand-ins for a file's macros that compile it on the first call (once for all of them). */
  private lazyExports(file: MacroFile, names: readonly string[]): Record<string, unknown> {
    let compiled: Record<string, unknown> | undefined;
    const compile = (): Record<string, unknown> => {
      try {
        return (compiled ??= this.compileExports(file));
      } catch (err) {
        // Compiled inside a render: the render's error names the macro file and its line, not the model's.
        if (this.currentState && err instanceof ProjectError) this.currentState.failure ??= err;
        throw err;
      }
    };
    if (file.package !== undefined && file.package !== SHIM_PACKAGE && !GLOBAL_PROJECT_FILES.includes(file)) this.packageFiles.push(compile);
    const out: Record<string, unknown> = {};
    for (const name of names) {
      out[name] = function compileOnFirstCall(this: unknown, ...args: unknown[]): unknown {
        const macro = compile()[name];
        if (typeof macro !== 'function') throw new Error(`macro '${name}' of ${file.path} is not defined at the top level of its file`);
        return (macro as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
    return out;
  }

  /** Compile every installed package's macro file not compiled yet (`mini-dbt parse` checks them all, as dbt's parse does; mini-dbt's own are checked by its tests). */
  compileAllMacros(): void {
    for (const compile of this.packageFiles) compile();
  }

  /**
   * Every macro name becomes a global that resolves per render (the node's
   * package, the root project, dbt's); each package is a namespace object
   * (`dbt_utils.star`, `dbt.dateadd`, `my_project.my_macro`). A builtin of the
   * context keeps its value unless a project macro replaces it (ref, source,
   * config, is_incremental); dbt's own macros never shadow a builtin.
   */
  private exposeMacros(globals: Record<string, unknown>, builtins: ReadonlySet<string>): void {
    const namespaces = this.namespaces;
    const local = (): string | undefined => this.currentState?.packageName;
    for (const name of namespaces.allNames()) {
      const builtin = builtins.has(name) ? Object.getOwnPropertyDescriptor(globals, name) : undefined;
      if (builtin) {
        const override = (): unknown => {
          const pkg = local() ?? namespaces.rootPackage;
          return namespaces.fromPackage(pkg, name) ?? (pkg === namespaces.rootPackage ? undefined : namespaces.fromPackage(namespaces.rootPackage, name));
        };
        Object.defineProperty(globals, name, {
          get: () => override() ?? (builtin.get ? builtin.get.call(globals) : builtin.value),
          enumerable: true,
          configurable: true,
        });
        continue;
      }
      Object.defineProperty(globals, name, { get: () => namespaces.resolve(name, local()), enumerable: true, configurable: true });
    }
    for (const pkg of namespaces.packageNames()) {
      if (pkg === '' || Object.prototype.hasOwnProperty.call(globals, pkg)) continue;
      Object.defineProperty(globals, pkg, { value: namespaces.namespace(pkg), enumerable: true, configurable: true });
    }
  }

  /** Compile (once) a template for a model or test file. */
  template(path: string, source: string): nunjucks.Template {
    let template = this.templates.get(path, source);
    if (!template) {
      try {
        template = this.options.sharedCode === false ? new nunjucks.Template(preprocessTemplate(source), this.env, path, true) : this.sharedCode.template(preprocessTemplate(source), path);
      } catch (err) {
        throw templateError(err, path);
      }
      this.templates.set(path, source, template);
    }
    return template;
  }

  /** Call a project macro from code (strategy macros), with the dbt context of `state`; returns its text. */
  callMacro(name: string, args: readonly unknown[], state: RenderState, path: string): string {
    // `pkg.name` calls a package's macro (run-operation dbt_utils.x), with that package's macros first unqualified.
    const dot = name.indexOf('.');
    if (dot > 0) state = { ...state, packageName: name.slice(0, dot) };
    const fn = dot > 0
      ? this.namespaces.fromPackage(name.slice(0, dot), name.slice(dot + 1))
      : (this.env as unknown as { globals: Record<string, unknown> }).globals[name];
    if (typeof fn !== 'function') throw new ProjectError(`macro '${name}' is not defined`, { location: { file: path } });
    const previous = this.current;
    const previousState = this.currentState;
    this.current = this.contextFor(state);
    this.currentState = state;
    try {
      return String((fn as (...a: readonly unknown[]) => unknown)(...args));
    } catch (err) {
      throw templateError(err, path, state.failure);
    } finally {
      this.current = previous;
      this.currentState = previousState;
    }
  }

  /** The dbt context of one render (built lazily, see RenderContext). */
  private contextFor(state: RenderState): RenderContext {
    const globals = (this.env as unknown as { globals: Record<string, unknown> }).globals;
    // Own names only: adapter.dispatch('constructor') must not find what every object inherits.
    const lookup: MacroLookup = Object.assign((name: string) => (Object.prototype.hasOwnProperty.call(globals, name) ? globals[name] : undefined), {
      dispatch: (name: string, namespace: string | undefined, prefixes: readonly string[]) => this.namespaces.dispatch(name, namespace, prefixes, state.packageName),
    });
    return new RenderContext(state, lookup);
  }

  /**
   * Pass 1 of a root-project model without rendering it (static-capture.ts):
   * true when `source` was captured into `sink`; false when that cannot be
   * proven, and it must be rendered (with a fresh sink).
   */
  captureStatically(path: string, source: string, sink: CaptureSink): boolean {
    if (this.options.staticCapture === false) return false;
    const simple = this.simpleTemplate(path, source);
    return simple !== null && captureSimpleTemplate(simple, this.staticNames, sink);
  }

  private readonly staticNames: StaticNames = {
    builtin: (name) => this.namespaces.fromPackage(this.namespaces.rootPackage, name) === undefined,
    inertMacro: (name) => {
      if (!this.inertMacros) {
        const parse = nunjucksParse((this.env as unknown as { extensionsList: unknown }).extensionsList, (this.env as unknown as { opts: unknown }).opts);
        this.inertMacros = new Map();
        for (const file of this.rootMacroFiles) for (const [n, m] of inertMacrosOf(preprocessTemplate(file.source), parse)) this.inertMacros.set(n, m);
      }
      // Only a macro the root project defines (a model's unqualified call resolves to it first).
      return this.namespaces.fromPackage(this.namespaces.rootPackage, name) ? this.inertMacros.get(name) : undefined;
    },
  };

  /** The template in the simple subset (see simple-template.ts), or null: nunjucks renders it. */
  private simpleTemplate(path: string, source: string): SimpleTemplate | null {
    if (this.options.simple === false) return null;
    let simple = this.simpleTemplates.get(path, source);
    if (simple === undefined) {
      const preprocessed = preprocessTemplate(source);
      simple = preprocessed === source ? parseSimpleTemplate(source) : null;
      this.simpleTemplates.set(path, source, simple);
    }
    return simple;
  }

  /** Render a template with the dbt context of `state` (and template-local variables `locals`). */
  render(path: string, source: string, state: RenderState, locals: Record<string, unknown> = {}): string {
    const simple = this.simpleTemplate(path, source);
    const template = simple ? undefined : this.template(path, source);
    const previous = this.current;
    const previousState = this.currentState;
    this.current = this.contextFor(state);
    this.currentState = state;
    try {
      if (simple) {
        const globals = (this.env as unknown as { globals: Record<string, unknown> }).globals;
        // On a failure: the error nunjucks would throw (its message, with the line of the failing call).
        return renderSimpleTemplate(
          simple,
          (name) => guardName(name, name in globals && !(name in locals) ? globals[name] : locals[name]),
          (err, line, column) => nunjucksLib._prettifyError(path, false, internals.runtime.handleError(err, line, column)),
        );
      }
      return template!.render(locals);
    } catch (err) {
      throw templateError(err, path, state.failure, source, this.macroNames);
    } finally {
      this.current = previous;
      this.currentState = previousState;
    }
  }
}

import nunjucks from 'nunjucks';
import { ProjectError } from '../errors/project-error.js';
import { builtinMacroNameProblem } from './builtin-macro-names.js';
import type { MacroFile } from '../project/project.js';
import { installPythonStringMethods } from './python-string-methods.js';
import { CONTEXT_NAMES, RenderContext } from './render-context.js';
import type { RenderState } from './render-state.js';
import { templateError } from './template-error.js';
import { BUILTIN_GENERIC_TESTS } from './jinja/builtin-generic-tests.js';
import { installJinjaExtensions } from './jinja/install-jinja-extensions.js';
import { installSandbox, installSandboxGlobals } from './jinja/install-sandbox.js';
import { guardName } from './jinja/sandbox-policy.js';
import { internals, nunjucksLib } from './jinja/nunjucks-internals.js';
import { preprocessTemplate } from './jinja/preprocess-template.js';
import { parseSimpleTemplate, renderSimpleTemplate, type SimpleTemplate } from './jinja/simple-template.js';
import { installTrailingCommas } from './jinja/trailing-commas.js';

let compatInstalled = false;

/**
 * One nunjucks environment per compile session. Macros from macros/*.sql
 * become globals (no import needed); the dbt context (ref, var, this, ...)
 * is exposed through getters that read the render in progress, so macros see
 * the model that calls them.
 */
export class JinjaEnvironment {
  readonly env: nunjucks.Environment;
  private current?: RenderContext;
  private readonly templates = new Map<string, nunjucks.Template>();
  private readonly simpleTemplates = new Map<string, SimpleTemplate | null>();
  readonly macroNames: string[] = [];

  /** `simple: false` sends every template through nunjucks (the differential tests compare both). */
  constructor(macros: readonly MacroFile[], private readonly options: { readonly simple?: boolean } = {}) {
    if (!compatInstalled) {
      // Before Jinja compat, whose slices wrap the parseAggregate it finds.
      installTrailingCommas();
      nunjucks.installJinjaCompat();
      installPythonStringMethods();
      compatInstalled = true;
    }
    this.env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
    installJinjaExtensions(this.env);
    installSandbox();
    installSandboxGlobals(this.env);
    for (const name of CONTEXT_NAMES) {
      Object.defineProperty((this.env as unknown as { globals: object }).globals, name, {
        get: () => (this.current as Record<string, unknown> | undefined)?.[name],
        enumerable: true,
        configurable: true,
      });
    }
    this.loadMacros([BUILTIN_GENERIC_TESTS, ...macros]);
  }

  private loadMacros(macros: readonly MacroFile[]): void {
    const origin = new Map<string, string>();
    const globals = (this.env as unknown as { globals: Record<string, unknown> }).globals;
    const builtins = new Set(Object.keys(globals));
    for (const file of macros) {
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
      for (const [name, fn] of Object.entries(exported)) {
        const previous = origin.get(name);
        if (previous && previous !== BUILTIN_GENERIC_TESTS.path) {
          throw new ProjectError(`macro '${name}' is defined twice: in ${previous} and ${file.path}`, { location: { file: file.path } });
        }
        const problem = builtinMacroNameProblem(name, builtins, file);
        if (problem) throw problem;
        origin.set(name, file.path);
        // A replaced builtin (ref, source, config, is_incremental) is a getter: the macro takes its place.
        if (builtins.has(name)) Object.defineProperty(globals, name, { value: fn, writable: true, enumerable: true, configurable: true });
        else this.env.addGlobal(name, fn);
        if (file !== BUILTIN_GENERIC_TESTS && !previous) this.macroNames.push(name);
      }
    }
  }

  /** Compile (once) a template for a model or test file. */
  template(path: string, source: string): nunjucks.Template {
    const key = `${path}\u0000${source}`;
    let template = this.templates.get(key);
    if (!template) {
      try {
        template = new nunjucks.Template(preprocessTemplate(source), this.env, path, true);
      } catch (err) {
        throw templateError(err, path);
      }
      this.templates.set(key, template);
    }
    return template;
  }

  /** Call a project macro from code (strategy macros), with the dbt context of `state`; returns its text. */
  callMacro(name: string, args: readonly unknown[], state: RenderState, path: string): string {
    const fn = (this.env as unknown as { globals: Record<string, unknown> }).globals[name];
    if (typeof fn !== 'function') throw new ProjectError(`macro '${name}' is not defined`, { location: { file: path } });
    const previous = this.current;
    this.current = this.contextFor(state);
    try {
      return String((fn as (...a: readonly unknown[]) => unknown)(...args));
    } catch (err) {
      throw templateError(err, path, state.failure);
    } finally {
      this.current = previous;
    }
  }

  /** The dbt context of one render (built lazily, see RenderContext). */
  private contextFor(state: RenderState): RenderContext {
    const globals = (this.env as unknown as { globals: Record<string, unknown> }).globals;
    // Own names only: adapter.dispatch('constructor') must not find what every object inherits.
    return new RenderContext(state, (name) => (Object.prototype.hasOwnProperty.call(globals, name) ? globals[name] : undefined));
  }

  /** The template in the simple subset (see simple-template.ts), or null: nunjucks renders it. */
  private simpleTemplate(path: string, source: string): SimpleTemplate | null {
    if (this.options.simple === false) return null;
    const key = `${path}\u0000${source}`;
    let simple = this.simpleTemplates.get(key);
    if (simple === undefined) {
      const preprocessed = preprocessTemplate(source);
      simple = preprocessed === source ? parseSimpleTemplate(source) : null;
      this.simpleTemplates.set(key, simple);
    }
    return simple;
  }

  /** Render a template with the dbt context of `state` (and template-local variables `locals`). */
  render(path: string, source: string, state: RenderState, locals: Record<string, unknown> = {}): string {
    const simple = this.simpleTemplate(path, source);
    const template = simple ? undefined : this.template(path, source);
    const previous = this.current;
    this.current = this.contextFor(state);
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
    }
  }
}

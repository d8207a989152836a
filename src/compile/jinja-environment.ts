import nunjucks from 'nunjucks';
import { ProjectError } from '../errors/project-error.js';
import type { MacroFile } from '../project/project.js';
import { contextFunctions } from './context-functions.js';
import { installPythonStringMethods } from './python-string-methods.js';
import type { RenderState } from './render-state.js';
import { templateError } from './template-error.js';
import { BUILTIN_GENERIC_TESTS } from './jinja/builtin-generic-tests.js';
import { dbtRuntimeContext } from './jinja/dbt-runtime-context.js';
import { installJinjaExtensions } from './jinja/install-jinja-extensions.js';
import { preprocessTemplate } from './jinja/preprocess-template.js';

let compatInstalled = false;

/** Names every render defines; macro globals are looked up through these getters. */
const FAKE_STATE = { captured: { refs: [], sources: [], config: {} }, config: {} } as unknown as RenderState;
const CONTEXT_NAMES = [...new Set([
  ...Object.keys(contextFunctions(FAKE_STATE)),
  ...Object.keys(dbtRuntimeContext(FAKE_STATE, () => undefined)),
])];

/**
 * One nunjucks environment per compile session. Macros from macros/*.sql
 * become globals (no import needed); the dbt context (ref, var, this, ...)
 * is exposed through getters that read the render in progress, so macros see
 * the model that calls them.
 */
export class JinjaEnvironment {
  readonly env: nunjucks.Environment;
  private current?: Record<string, unknown>;
  private readonly templates = new Map<string, nunjucks.Template>();
  readonly macroNames: string[] = [];

  constructor(macros: readonly MacroFile[]) {
    if (!compatInstalled) {
      nunjucks.installJinjaCompat();
      installPythonStringMethods();
      compatInstalled = true;
    }
    this.env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
    installJinjaExtensions(this.env);
    for (const name of CONTEXT_NAMES) {
      Object.defineProperty((this.env as unknown as { globals: object }).globals, name, {
        get: () => this.current?.[name],
        enumerable: true,
        configurable: true,
      });
    }
    this.loadMacros([BUILTIN_GENERIC_TESTS, ...macros]);
  }

  private loadMacros(macros: readonly MacroFile[]): void {
    const origin = new Map<string, string>();
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
        origin.set(name, file.path);
        this.env.addGlobal(name, fn);
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

  /** The dbt context of one render: contextFunctions plus what needs the warehouse or Python modules. */
  private contextFor(state: RenderState): Record<string, unknown> {
    const globals = (this.env as unknown as { globals: Record<string, unknown> }).globals;
    return { ...contextFunctions(state), ...dbtRuntimeContext(state, (name) => globals[name]) };
  }

  /** Render a template with the dbt context of `state` (and template-local variables `locals`). */
  render(path: string, source: string, state: RenderState, locals: Record<string, unknown> = {}): string {
    const template = this.template(path, source);
    const previous = this.current;
    this.current = this.contextFor(state);
    try {
      return template.render(locals);
    } catch (err) {
      throw templateError(err, path, state.failure, source, this.macroNames);
    } finally {
      this.current = previous;
    }
  }
}

import nunjucks from 'nunjucks';
import { ProjectError } from '../errors/project-error.js';
import type { MacroFile } from '../project/project.js';
import { contextFunctions } from './context-functions.js';
import { installPythonStringMethods } from './python-string-methods.js';
import type { RenderState } from './render-state.js';
import { templateError } from './template-error.js';

let compatInstalled = false;

/** Names every render defines; macro globals are looked up through these getters. */
const CONTEXT_NAMES = Object.keys(
  contextFunctions({ captured: { refs: [], sources: [], config: {} }, config: {} } as unknown as RenderState),
);

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
    for (const name of CONTEXT_NAMES) {
      Object.defineProperty((this.env as unknown as { globals: object }).globals, name, {
        get: () => this.current?.[name],
        enumerable: true,
        configurable: true,
      });
    }
    this.loadMacros(macros);
  }

  private loadMacros(macros: readonly MacroFile[]): void {
    const origin = new Map<string, string>();
    for (const file of macros) {
      let template: nunjucks.Template;
      try {
        template = new nunjucks.Template(file.source, this.env, file.path, true);
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
        if (previous) {
          throw new ProjectError(`macro '${name}' is defined twice: in ${previous} and ${file.path}`, { location: { file: file.path } });
        }
        origin.set(name, file.path);
        this.env.addGlobal(name, fn);
        this.macroNames.push(name);
      }
    }
  }

  /** Compile (once) a template for a model or test file. */
  template(path: string, source: string): nunjucks.Template {
    let template = this.templates.get(path);
    if (!template) {
      try {
        template = new nunjucks.Template(source, this.env, path, true);
      } catch (err) {
        throw templateError(err, path);
      }
      this.templates.set(path, template);
    }
    return template;
  }

  /** Render a template with the dbt context of `state`. */
  render(path: string, source: string, state: RenderState): string {
    const template = this.template(path, source);
    const previous = this.current;
    this.current = contextFunctions(state);
    try {
      return template.render({});
    } catch (err) {
      throw templateError(err, path, state.failure, source);
    } finally {
      this.current = previous;
    }
  }
}

import { internals, type CompilerInstance } from './nunjucks-internals.js';

let installed = false;

/**
 * Export a file's top-level macros whose names start with `_` too. Jinja
 * (and nunjucks) treat them as private to the template, but dbt reads each
 * `{% macro %}` of a macro file into its package's namespace whatever its
 * name, so packages call their helpers as `dbt_date._iso_week_start(...)`.
 */
export function installPrivateMacroExports(): void {
  if (installed) return;
  installed = true;
  const proto = internals.compiler.Compiler.prototype;
  const compileMacro = proto.compileMacro as (this: CompilerInstance, node: { name: { value: string } }, frame: { parent?: unknown }) => void;
  proto.compileMacro = function compileMacroExported(this: CompilerInstance, node: { name: { value: string } }, frame: { parent?: unknown }): void {
    compileMacro.call(this, node, frame);
    const name = node.name.value;
    if (!frame.parent && name.startsWith('_')) this._emitLine(`context.addExport(${JSON.stringify(name)});`);
  };
}

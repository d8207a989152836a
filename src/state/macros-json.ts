import type { Manifest } from '../compile/manifest.js';
import type { MacroFile } from '../project/project.js';

/** `{% macro name(...) %} ... {% endmacro %}` and `{% test name(...) %} ... {% endtest %}` blocks (dbt registers a test as macro test_<name>). */
const BLOCK = /\{%-?\s*(macro|test)\s+([A-Za-z_]\w*)\s*\([\s\S]*?\{%-?\s*end\1\s*-?%\}/g;

/**
 * manifest.json's `macros`, as dbt writes them: macro.<package>.<name> with
 * its package, paths and the block's text (macro_sql), for the root project's
 * macro files and each installed package's. Which macros a macro calls is not
 * recorded (depends_on.macros is empty).
 */
export function macrosJson(manifest: Manifest): Record<string, unknown> {
  const project = manifest.project;
  const files: MacroFile[] = [...project.macros, ...(project.packages ?? []).flatMap((p) => p.macros.map((m) => (m.package !== undefined ? m : { ...m, package: p.name })))];
  const out: Record<string, unknown> = {};
  for (const file of files) {
    const pkg = file.package ?? project.name;
    for (const block of file.source.matchAll(BLOCK)) {
      const name = block[1] === 'test' ? `test_${block[2]}` : block[2]!;
      const uniqueId = `macro.${pkg}.${name}`;
      if (uniqueId in out) continue;
      out[uniqueId] = {
        name, resource_type: 'macro', package_name: pkg, path: file.path.split('/').slice(1).join('/'), original_file_path: file.path, unique_id: uniqueId,
        macro_sql: block[0], depends_on: { macros: [] }, description: '', meta: {}, docs: { show: true, node_color: null }, patch_path: null, arguments: [], supported_languages: null,
      };
    }
  }
  return out;
}

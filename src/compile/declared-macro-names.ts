/**
 * The macros a macro file defines at its top level, read from its text
 * without compiling it: `{% macro name(` and dbt's `{% test name(` (a macro
 * named test_<name>), outside comments and raw blocks; a macro inside
 * another is local to it. Undefined when the file holds something a reading
 * cannot be sure of (a materialization block, unbalanced macro tags): the
 * caller compiles such a file at once.
 */
export function declaredMacroNames(source: string): string[] | undefined {
  const text = source.replace(/\{#[\s\S]*?#\}/g, '').replace(/\{%-?\s*raw\s*-?%\}[\s\S]*?\{%-?\s*endraw\s*-?%\}/g, '');
  if (/\{%-?\s*materialization\b/.test(text)) return undefined;
  const names: string[] = [];
  let depth = 0;
  const tag = /\{%-?\s*(macro|test|endmacro|endtest)\b(?:\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()?/g;
  for (let m = tag.exec(text); m !== null; m = tag.exec(text)) {
    const [, keyword, name] = m;
    if (keyword === 'endmacro' || keyword === 'endtest') {
      depth--;
      if (depth < 0) return undefined;
      continue;
    }
    if (!name) return undefined;
    if (depth === 0) names.push(keyword === 'test' ? `test_${name}` : name);
    depth++;
  }
  return depth === 0 ? names : undefined;
}

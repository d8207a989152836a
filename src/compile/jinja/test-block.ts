/**
 * dbt's generic test definitions, `{% test name(model, column_name) %} ...
 * {% endtest %}`, are macros named `test_<name>`. nunjucks has no `test`
 * tag, so the source is rewritten (same lines) before it is compiled.
 */
export function rewriteTestBlocks(source: string): string {
  if (!/\{%-?\s*test\s/.test(source)) return source;
  return source
    .replace(/\{%(-?)(\s*)test\s+([A-Za-z_]\w*)\s*\(/g, '{%$1$2macro test_$3(')
    .replace(/\{%(-?)(\s*)endtest(\s*)(-?)%\}/g, '{%$1$2endmacro$3$4%}');
}

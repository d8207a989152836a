import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * String literals inside Jinja tags read with Python's escapes, as Jinja's lexer decodes them: an
 * escape Python does not know keeps its backslash (`'\w+'` is the pattern `\w+`, as dbt projects write
 * modules.re patterns: dbt_project_evaluator's hard-coded-reference finder), `\t`, `\x41`, `\101`,
 * `\u00e9` and `\\` are what Python makes of them.
 */
describeEachEngine('Jinja string literals with backslashes', (engine) => {
  it("keep an unknown escape's backslash and read Python's escapes", () => {
    const p = conformanceProject({
      'models/escapes.sql': `{{ config(materialized='table') }}
{% set re = modules.re %}
select
  '{{ re.findall('\\w+', 'from orders join items') | join(',') }}' as words,
  '{{ re.sub('\\s+', ' ', 'a   b') }}' as squeezed,
  {{ '\\w' | length }} as unknown_escape_length,
  {{ 'a\\tb' | length }} as tab_length,
  '{{ '\\x41\\101\\u00e9' }}' as hex_octal_unicode,
  {{ 'C:\\\\dir' | length }} as backslash_length
`,
    }, 'escapes', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(p.rows('escapes').map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])))).toEqual([
      { words: 'from,orders,join,items', squeezed: 'a b', unknown_escape_length: 2, tab_length: 3, hex_octal_unicode: 'AAé', backslash_length: 6 },
    ]);
  });
});

import { expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter query_comment/test_query_comment.py: the project's `query-comment` is put on
 * every statement sent to the warehouse, rendered with the project's macros, `node` and
 * `connection_name`. dbt's test reads its --debug log; here the warehouse itself shows what it was
 * sent. On PostgreSQL a table model `select current_query()` keeps the whole text of the statement
 * that built it (the comment before it, dbt's default placement). SQLite keeps no statement text
 * but a view's: its CREATE VIEW, from CREATE on (a comment before it is not kept, one after it is),
 * so on SQLite each case sets `append: true` and reads the view's stored SQL.
 */
const MACROS = `{%- macro query_header_no_args() -%}
{%- set x = "are pretty cool" -%}
{{ "dbt macros" }}
{{ x }}
{%- endmacro -%}

{%- macro query_header_args(message) -%}
  {%- set comment_dict = dict(
    app='dbt++',
    macro_version='0.1.0',
    dbt_version=dbt_version,
    message='blah: '~ message) -%}
  {{ return(comment_dict) }}
{%- endmacro -%}

{%- macro ordered_to_json(dct) -%}
{{ tojson(dct, sort_keys=True) }}
{%- endmacro %}

{% macro invalid_query_header() -%}
{{ "Here is an invalid character for you: */" }}
{% endmacro %}
`;

/** The model whose statement text each engine keeps (see above). */
const SEEN: Record<EngineName, string> = {
  postgres: "{{ config(materialized='table') }}\nselect current_query() as q\n",
  sqlite: "{{ config(materialized='view') }}\nselect 1 as outer_id\n",
};

/** `query-comment` as dbt's test sets it (PostgreSQL), or as the same comment appended (SQLite). */
function projectFile(engine: EngineName, comment: string | undefined): string {
  const base = "name: conformance\nversion: '1.0'\nprofile: default\n";
  if (engine === 'postgres') return comment === undefined ? base : `${base}query-comment: ${comment}\n`;
  return comment === undefined ? `${base}query-comment:\n  append: true\n` : `${base}query-comment:\n  comment: ${comment}\n  append: true\n`;
}

/** The text of the statement that built `seen`, as the warehouse kept it. */
function sentText(p: ConformanceProject, engine: EngineName): string {
  if (engine === 'postgres') return String(p.rows('seen')[0]!.q);
  return String(p.query("select sql from sqlite_master where name = 'seen'")[0]!.sql);
}

/**
 * What each engine shows of a comment: on PostgreSQL, right before the CREATE TABLE (current_query()
 * is the whole text sent at once: a model's statements go in one round trip, each with its comment);
 * on SQLite, at the end of the CREATE VIEW.
 */
function placed(engine: EngineName, comment: string): RegExp {
  const escaped = comment.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return engine === 'postgres' ? new RegExp(`(^|\\n)/\\* ${escaped} \\*/\\ncreate table `) : new RegExp(`\\n/\\* ${escaped} \\*/$`);
}

function build(engine: EngineName, comment: string | undefined, extra: Readonly<Record<string, string>> = {}): { p: ConformanceProject; run: ReturnType<ConformanceProject['dbt']> } {
  const p = conformanceProject({ 'dbt_project.yml': projectFile(engine, comment), 'models/seen.sql': SEEN[engine], 'macros/macro.sql': MACROS, ...extra }, 'conformance', { engine });
  return { p, run: p.dbt(['run']) };
}

describeEachEngine('query-comment (dbt-tests-adapter query_comment)', (engine) => {
  it("TestQueryComments: a string is the comment, trimmed, inside /* */", () => {
    const { p, run } = build(engine, '"dbt\\nrules!\\n"');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(sentText(p, engine)).toMatch(placed(engine, 'dbt\nrules!'));
  });

  it('TestMacroQueryComments: a macro call renders with the project\'s macros', () => {
    const { p, run } = build(engine, '"{{ query_header_no_args() }}"');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(sentText(p, engine)).toMatch(placed(engine, 'dbt macros\nare pretty cool'));
  });

  it('TestMacroArgsQueryComments: return() of a macro given target.name is the comment', () => {
    const { p, run } = build(engine, '"{{ return(ordered_to_json(query_header_args(target.name))) }}"');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const target = engine === 'postgres' ? 'pg' : 'dev';
    expect(sentText(p, engine)).toMatch(placed(engine, `{"app": "dbt++", "dbt_version": "1.10.18", "macro_version": "0.1.0", "message": "blah: ${target}"}`));
  });

  it('TestMacroInvalidQueryComments: a comment holding */ fails the run before anything is built (E195)', () => {
    const { p, run } = build(engine, '"{{ invalid_query_header() }}"');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('query comment contains illegal value "*/": Here is an invalid character for you: */');
    expect(p.relationType('seen')).toBeUndefined();
  });

  it('TestNullQueryComments and TestEmptyQueryComments: null or an empty string turns the comment off', () => {
    for (const off of ['null', "''"]) {
      const { p, run } = build(engine, off);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(sentText(p, engine)).not.toContain('/*');
    }
  });

  it("dbt's default comment: app, dbt_version, profile and target names, the node's id", () => {
    const { p, run } = build(engine, undefined);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const target = engine === 'postgres' ? 'pg' : 'dev';
    const profile = engine === 'postgres' ? '"default"' : 'null';
    expect(sentText(p, engine)).toMatch(placed(engine, `{"app": "dbt", "dbt_version": "1.10.18", "profile_name": ${profile}, "target_name": "${target}", "node_id": "model.conformance.seen"}`));
  });

  it("each node's statements carry its own node; the run's hooks carry connection_name 'master'", () => {
    const comment = '"{{ (node.resource_type ~ \' \' ~ node.name ~ \' in \' ~ node.original_file_path) if node is not none else \'connection \' ~ connection_name }}"';
    const hookModel = engine === 'postgres'
      ? "create table hook_seen as select current_query() as q"
      : "create view hook_seen as select 1 as a";
    const p = conformanceProject({
      'dbt_project.yml': `${projectFile(engine, comment)}on-run-start: "${hookModel}"\n`,
      'models/seen.sql': SEEN[engine],
      'models/other/second.sql': SEEN[engine].replace('outer_id', 'other_id'),
    }, 'conformance', { engine });
    // Two threads: on PostgreSQL the two models run side by side, each on a thread's own connection.
    const run = p.dbt(['run', '--threads', '2']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(sentText(p, engine)).toMatch(placed(engine, 'model seen in models/seen.sql'));
    const second = engine === 'postgres' ? String(p.rows('second')[0]!.q) : String(p.query("select sql from sqlite_master where name = 'second'")[0]!.sql);
    expect(second).toMatch(placed(engine, 'model second in models/other/second.sql'));
    const hook = engine === 'postgres' ? String(p.rows('hook_seen')[0]!.q) : String(p.query("select sql from sqlite_master where name = 'hook_seen'")[0]!.sql);
    expect(hook).toMatch(placed(engine, 'connection master'));
  });
});

describeEachEngine('query-comment on show and source freshness', (engine) => {
  // Only PostgreSQL shows a comment put before a SELECT (current_query()); on SQLite these only must still work.
  it("show --inline: the query carries dbt's comment naming the inline query", () => {
    const p = conformanceProject({ 'models/seen.sql': SEEN[engine] }, 'conformance', { engine });
    expect(p.dbt(['run']).code).toBe(0);
    const query = engine === 'postgres' ? 'select current_query() as q' : "select 'none' as q";
    const out = p.dbt(['show', '--inline', query, '--output', 'json']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const q = String((JSON.parse(out.stdout.slice(out.stdout.indexOf('{'))) as { show: { q: string }[] }).show[0]!.q);
    if (engine === 'postgres') expect(q).toMatch(/^\/\* \{"app": "dbt", "dbt_version": "1\.10\.18", "profile_name": "default", "target_name": "pg", "node_id": "sql_operation\.conformance\.inline_query"\} \*\/\n/);
    else expect(q).toBe('none');
  });

  it("source freshness: its project hooks carry the run's comment (connection_name master)", () => {
    const hook = engine === 'postgres' ? 'create table hook_seen as select current_query() as q' : "create table hook_seen as select 'none' as q";
    const p = conformanceProject({
      'dbt_project.yml': `name: conformance\nversion: '1.0'\nprofile: default\non-run-start: "${hook}"\n`,
      'models/sources.yml': "version: 2\nsources:\n  - name: raw\n    schema: \"{{ target.schema }}\"\n    freshness:\n      warn_after: {count: 1, period: day}\n    loaded_at_field: loaded_at\n    tables:\n      - name: events\n",
    }, 'conformance', { engine });
    p.exec(engine === 'postgres' ? 'create table events as select now() as loaded_at' : "create table events as select datetime('now') as loaded_at");
    const out = p.dbt(['source', 'freshness']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const q = String(p.rows('hook_seen')[0]!.q);
    if (engine === 'postgres') expect(q).toContain('/* {"app": "dbt", "dbt_version": "1.10.18", "profile_name": "default", "target_name": "pg", "connection_name": "master"} */\ncreate table hook_seen');
    else expect(q).toBe('none');
  });
});

describeEachEngine('query-comment: bad values', (engine) => {
  it('a mapping key dbt does not know is refused, naming the keys it takes (E199)', () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nquery-comment:\n  coment: hello\n",
      'models/seen.sql': SEEN[engine],
    }, 'conformance', { engine });
    const run = p.dbt(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("invalid query-comment in dbt_project.yml: unexpected key 'coment'; expected comment, append, job-label");
    expect(p.relationType('seen')).toBeUndefined();
  });

  it("a comment that renders for the run but not for one node fails that node alone, before its statements; its child is skipped", () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nquery-comment: \"{{ node.config.meta.owner.upper() if node is not none else 'the run' }}\"\n",
      'models/owned.sql': "{{ config(materialized='table', meta={'owner': 'ann'}) }}\nselect 1 as id\n",
      'models/orphan.sql': "{{ config(materialized='table') }}\nselect 2 as id\n",
      'models/child.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('orphan') }}\n",
    }, 'conformance', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.statuses).toEqual({ 'model.conformance.owned': 'success', 'model.conformance.orphan': 'error', 'model.conformance.child': 'skipped' });
    expect(run.stdout).toContain('query-comment in dbt_project.yml failed to render');
    expect(p.rows('owned')).toEqual([{ id: 1 }]);
    expect(p.relationType('orphan')).toBeUndefined();
    expect(p.relationType('child')).toBeUndefined();
    // The run finished and is recorded so: the ledger's run row is closed.
    expect(p.query("select status from _mini_dbt_runs")).toEqual([{ status: 'error' }]);
  });

  it('a comment that fails to render (an unknown macro) stops the run before anything is built (E200)', () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nquery-comment: \"{{ no_such_macro() }}\"\n",
      'models/seen.sql': SEEN[engine],
    }, 'conformance', { engine });
    const run = p.dbt(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('query-comment in dbt_project.yml failed to render');
    expect(run.stderr).toContain('no_such_macro');
    expect(p.relationType('seen')).toBeUndefined();
  });
});

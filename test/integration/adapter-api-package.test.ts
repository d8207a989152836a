import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureProject } from '../support/fixture-project.js';
import { runCli } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';

/**
 * dbt's adapter and relation API as a package calls it: the fixture's own
 * tiny package (dbt_packages/fake_api) reads columns, flags and relations;
 * the root models call the rest. Each value is what dbt-sqlite gives.
 */
describe('the adapter API from a package (test/fixtures/projects/adapter-api)', () => {
  const dir = fixtureProject('adapter-api');
  const build = runCli(['build', '--project-dir', dir]);
  const row = (model: string): Record<string, unknown> => tableRows(dir, model, join(dir, 'warehouse.db'))[0]!;

  it('builds every model but the two that fail on purpose, each with its own message', () => {
    expect(build.stdout).toMatch(/Done\. PASS=5 WARN=0 ERROR=2 SKIP=0 TOTAL=7/);
    expect(build.stdout).toContain('Compilation Error in model api_not_implemented (models/api_not_implemented.sql): no such thing on SQLite');
    expect(build.stdout).toContain('models/api_unknown_flag.sql: The flag no_such_flag has not be registered.');
  });

  it("get_columns_in_relation gives dbt's Column: a TEXT column is a string of 256, REAL a float, INTEGER an integer", () => {
    expect(String(row('api_columns').report).split(';')).toEqual([
      'id/id/"id"/INTEGER/INTEGER/False/True/True/False/False/-/None',
      'customer/customer/"customer"/TEXT/character varying(256)/True/False/False/False/False/256/None',
      'amount/amount/"amount"/REAL/REAL/False/True/False/True/False/-/None',
      'note/note/"note"/TEXT/character varying(256)/True/False/False/False/False/256/None',
    ]);
  });

  it('api.Column: create, translate_type, string_type, numeric_type, from_description, called as a class', () => {
    expect(String(row('api_columns').column_api).split('|')).toEqual([
      'TEXT', 'character varying(256)', 'TEXT', 'integer', 'character varying(10)', 'numeric(10,2)', 'numeric',
      '20', 'character varying(20)', '12', '3', 'numeric(12,3)', 'True', 'True', 'True',
    ]);
  });

  it('adapter.behavior, list_relations_without_caching, list_schemas, check_schema_exists, quote_as_configured, type', () => {
    const r = row('api_adapter');
    expect(r.behavior).toBe('False|False|False');
    expect(r.relations).toBe('orders:table'); // mini-dbt's ledger tables are not the project's relations
    expect(r.schemas).toBe('main');
    expect(r.schema_exists).toBe('True|False');
    expect(r.quoted).toBe('"x"|x');
    expect(r.adapter_type).toBe('sqlite');
  });

  it('relations: schema-only create, include, incorporate, get, without_identifier; the no-op adapter methods', () => {
    const r = row('api_adapter');
    expect(r.schema_relation).toBe('"main"|');
    expect(r.relation_methods).toBe('"orders"|"main"."other"|orders|"main"');
    expect(r.no_ops).toBe('0');
  });

  it('run_query tables: columns.items()/keys(), row.get()/keys()/values(), statement data, table and response; print_table logs', () => {
    expect(row('api_agate').agate).toBe('customer=ann+bob|amount=10.5+20|customer+amount|ann|customer+amount|bob+20|30.5|2|2|SELECT');
    expect(build.stdout).toMatch(/\| customer \| amount \|\n\| -------- \| ------ \|\n\| ann      \|   10\.5 \|\n\| bob      \|     20 \|/);
  });

  it('a return() inside a statement block returns from the macro around it, and the statement does not run', () => {
    expect(row('api_adapter').returned_in_call).toBe('d1,d2');
  });

  it('rename_relation and drop_relation change the warehouse while the model runs', () => {
    expect(row('api_ddl').ddl).toBe('True|True|True');
  });
});

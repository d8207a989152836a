import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject, type Invocation } from '../support/conformance-project.js';

/**
 * Conformance with dbt (issue 15): a seed's `quote_columns`, modelled on dbt-tests-adapter's
 * simple_seed/test_seed.py (the project's `seeds: quote_columns: false`, the seed loaded and compared
 * row for row) and simple_seed/test_seed_type_override.py (`quote_columns: true` for one seed). dbt's
 * adapter.quote_seed_column quotes unless the config is false (unset and null quote; dbt-sqlite keeps
 * that default); anything but a boolean is refused. On SQLite the difference shows in the table's DDL
 * (sqlite_master keeps it as written) and in the names that only load quoted: a space, a keyword.
 */

const PROJECT = `name: quoting
version: '1.0'
profile: default
seeds:
  quoting:
    +quote_columns: false
`;

const PROPS = `seeds:
  - name: spaced_quoted
    config:
      quote_columns: true
  - name: keyword_null
    config:
      quote_columns: null
  - name: bad_flag
    config:
      quote_columns: 'yes'
`;

let p: ConformanceProject;
let seed: Invocation;

beforeAll(() => {
  p = conformanceProject({
    'dbt_project.yml': PROJECT,
    'seeds/props.yml': PROPS,
    'seeds/plain_unquoted.csv': 'id,first_name,Mixed_Case\n1,ann,A\n2,bob,B\n',
    'seeds/spaced_quoted.csv': 'id,First Name\n1,ann\n',
    'seeds/keyword_null.csv': 'id,order\n1,first\n',
    'seeds/spaced_unquoted.csv': 'id,First Name\n1,ann\n',
    'seeds/keyword_unquoted.csv': 'id,order\n1,first\n',
    'seeds/bad_flag.csv': 'id\n1\n',
  }, 'quoting');
  seed = p.dbt(['seed']);
});

/** The CREATE TABLE text SQLite keeps for a table (as the seed wrote it). */
function ddl(table: string): string | undefined {
  const db = new Database(join(p.dir, 'warehouse.db'), { readonly: true });
  try {
    return (db.prepare("select sql from sqlite_master where type = 'table' and name = ?").get(table) as { sql: string } | undefined)?.sql;
  } finally {
    db.close();
  }
}

describe('seed quote_columns (dbt-tests-adapter simple_seed/test_seed.py, test_seed_type_override.py)', () => {
  it('quote_columns: false writes the names bare; the rows load as they are, mixed case kept', () => {
    expect(seed.statuses['seed.quoting.plain_unquoted']).toBe('success');
    expect(ddl('plain_unquoted')).toMatch(/\(id \w+, first_name \w+, Mixed_Case \w+\)/);
    expect(p.rows('plain_unquoted', 'id')).toEqual([
      { id: 1, first_name: 'ann', Mixed_Case: 'A' },
      { id: 2, first_name: 'bob', Mixed_Case: 'B' },
    ]);
  });

  it('a seed\'s own quote_columns: true beats the project\'s false: a header with a space loads', () => {
    expect(seed.statuses['seed.quoting.spaced_quoted']).toBe('success');
    expect(ddl('spaced_quoted')).toContain('"First Name"');
    expect(p.rows('spaced_quoted')).toEqual([{ id: 1, 'First Name': 'ann' }]);
  });

  it('quote_columns: null is dbt\'s default, quoting: a keyword column loads', () => {
    expect(seed.statuses['seed.quoting.keyword_null']).toBe('success');
    expect(ddl('keyword_null')).toContain('"order"');
    expect(p.rows('keyword_null')).toEqual([{ id: 1, order: 'first' }]);
  });

  it('unquoted, a name that is not a plain identifier or is a keyword fails that seed with its file and column (E134), nothing written', () => {
    expect(seed.code).toBe(1);
    expect(seed.statuses['seed.quoting.spaced_unquoted']).toBe('error');
    expect(seed.statuses['seed.quoting.keyword_unquoted']).toBe('error');
    expect(seed.stdout).toContain("seeds/spaced_unquoted.csv:1: column 'First Name' cannot be written unquoted, as quote_columns: false asks: it is not a plain identifier");
    expect(seed.stdout).toContain("seeds/keyword_unquoted.csv:1: column 'order' cannot be written unquoted, as quote_columns: false asks: it is an SQL keyword the database cannot read unquoted");
    expect(seed.stdout).not.toMatch(/Database Error/);
    expect(p.relationType('spaced_unquoted')).toBeUndefined();
    expect(p.relationType('keyword_unquoted')).toBeUndefined();
  });

  it('a quote_columns that is not a boolean fails that seed (E135), as dbt\'s QuoteConfigTypeError', () => {
    expect(seed.statuses['seed.quoting.bad_flag']).toBe('error');
    expect(seed.stdout).toContain('seeds/bad_flag.csv: the seed configuration value of "quote_columns" has an invalid type: "yes" is not true or false');
    expect(p.relationType('bad_flag')).toBeUndefined();
  });

  it('a second seed run under quote_columns: false keeps the bare DDL and the rows', () => {
    const again = p.dbt(['seed', '--select', 'plain_unquoted']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(p.count('plain_unquoted')).toBe(2);
    expect(ddl('plain_unquoted')).toMatch(/\(id \w+, first_name \w+, Mixed_Case \w+\)/);
  });
});

import { describe, expect, it } from 'vitest';
import { parseTestEntry } from '../../../src/data-tests/parse-test-entry.js';
import { failingRowsQuery, testQuery, testStatus, testThresholds } from '../../../src/data-tests/test-query.js';
import { synthesizeTestName } from '../../../src/data-tests/test-names.js';
import { ProjectError } from '../../../src/errors/project-error.js';

const at = { file: 'models/schema.yml', line: 3 };

describe("dbt's generic test names", () => {
  it('test_target_column, then the arguments in name order', () => {
    expect(synthesizeTestName('unique', 'orders', { column_name: 'order_id' }).name).toBe('unique_orders_order_id');
    expect(synthesizeTestName('accepted_values', 'orders', { column_name: 'status', values: ['placed', 'shipped'] }).name).toBe('accepted_values_orders_status__placed__shipped');
    expect(synthesizeTestName('relationships', 'orders', { column_name: 'customer_id', to: "ref('customers')", field: 'customer_id' }).name)
      .toBe('relationships_orders_customer_id__customer_id__ref_customers_');
    expect(synthesizeTestName('accepted_values', 'daily', { column_name: 'n', values: [1], quote: false }).name).toBe('accepted_values_daily_n__False__1');
    expect(synthesizeTestName('source_unique', 'shop_orders', { column_name: 'id' }).name).toBe('source_unique_shop_orders_id');
  });

  it('hashes names of 64 characters or more exactly as dbt (jaffle_shop)', () => {
    const { name, fullName } = synthesizeTestName('accepted_values', 'stg_orders', { column_name: 'status', values: ['placed', 'shipped', 'completed', 'return_pending', 'returned'] });
    expect(name).toBe('accepted_values_stg_orders_4f514bf94b77b7ea437830eec4421c58');
    expect(fullName).toBe('accepted_values_stg_orders_status__placed__shipped__completed__return_pending__returned');
  });
});

describe('test entries in yml', () => {
  it('reads the short form, arguments, config and legacy top-level config keys', () => {
    expect(parseTestEntry('unique', at)).toMatchObject({ testName: 'unique', args: {}, config: {} });
    expect(parseTestEntry({ accepted_values: { values: ['a'], quote: false, severity: 'warn', config: { where: 'x > 1' } } }, at))
      .toMatchObject({ testName: 'accepted_values', args: { values: ['a'], quote: false }, config: { severity: 'warn', where: 'x > 1' } });
    expect(parseTestEntry({ 'dbt_utils.expression_is_true': { arguments: { expression: 'a > 0' } } }, at))
      .toMatchObject({ testName: 'expression_is_true', namespace: 'dbt_utils', args: { expression: 'a > 0' } });
    expect(parseTestEntry({ name: 'my_name', test_name: 'unique' }, at)).toMatchObject({ testName: 'unique', customName: 'my_name' });
  });

  it('rejects entries that are not a test', () => {
    expect(() => parseTestEntry({ a: 1, b: 2 }, at)).toThrow(ProjectError);
    expect(() => parseTestEntry({ unique: 'x' }, at)).toThrow(/arguments must be a mapping/);
  });
});

describe('the test query', () => {
  it("wraps the failing rows in dbt's failures / should_warn / should_error query", () => {
    const t = testThresholds('t', { warn_if: '>0', error_if: '> 5', limit: 10 });
    expect(testQuery('select 1;', t)).toBe([
      'select',
      '    count(*) as failures,',
      "    case when count(*) > 0 then 'true' else 'false' end as should_warn,",
      "    case when count(*) > 5 then 'true' else 'false' end as should_error",
      'from (',
      'select 1',
      'limit 10',
      ') dbt_internal_test',
    ].join('\n'));
    expect(failingRowsQuery('select 1 -- c')).toBe('select * from (\nselect 1 -- c\n) dbt_internal_test');
  });

  it('decides PASS / WARN / FAIL as dbt, with its messages', () => {
    const error = testThresholds('t', {});
    expect(testStatus({ failures: 2, should_warn: 'true', should_error: 'true' }, error)).toEqual({ status: 'fail', failures: 2, message: 'Got 2 results, configured to fail if != 0' });
    const warn = testThresholds('t', { severity: 'WARN' });
    expect(testStatus({ failures: 1, should_warn: 'true', should_error: 'true' }, warn)).toEqual({ status: 'warn', failures: 1, message: 'Got 1 result, configured to warn if != 0' });
    expect(testStatus({ failures: 0, should_warn: 'false', should_error: 'false' }, error).status).toBe('pass');
  });

  it('refuses thresholds that are not a comparison (they are pasted into SQL)', () => {
    expect(() => testThresholds('t', { error_if: '> 0; drop table x' })).toThrow(/error_if must be a comparison/);
    expect(() => testThresholds('t', { severity: 'fatal' })).toThrow(/severity must be 'error' or 'warn'/);
    expect(() => testThresholds('t', { limit: 'ten' })).toThrow(/limit must be a whole number/);
  });
});

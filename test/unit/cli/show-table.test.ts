import { describe, expect, it } from 'vitest';
import { agateNumberFormatter } from '../../../src/cli/agate-number-format.js';
import { showTable } from '../../../src/cli/show-table.js';

const column = (values: (number | null)[]) => {
  const format = agateNumberFormatter(values);
  return values.map((v) => (v === null ? '' : format(v)));
};

describe("show's table, as agate's print_table prints dbt's preview", () => {
  it('numbers that are not all whole: thousands grouped, every value with the column’s largest count of decimals', () => {
    expect(column([6051.66, 16, 211109.1, null])).toEqual(['6,051.66', '16.00', '211,109.10', '']);
    expect(column([-1234.5, 0.5])).toEqual(['-1,234.5', '0.5']);
    expect(column([1e21, 3.5])).toEqual(['1,000,000,000,000,000,000,000.0', '3.5']);
  });

  it('more than three decimals: three, rounded half to even on the shortest decimal form, each value marked with …', () => {
    expect(column([0.12345, 1234567.5])).toEqual(['0.123…', '1,234,567.500…']);
    expect(column([0.0005, 0.0015, 0.0025, 1e-7])).toEqual(['0.000…', '0.002…', '0.002…', '0.000…']);
    expect(column([-0.0004, 0.0001])).toEqual(['-0.000…', '0.000…']);
  });

  it('a whole table: integers as they are, text left-aligned, everything else right-aligned, headers too', () => {
    const table = showTable(
      ['order_date', 'orders', 'revenue', 'note'],
      [
        ['2026-10-28', 1016, 6051.66, 'late'],
        ['2026-10-29', 13, 211109.1, null],
      ],
    );
    expect(table.split('\n')).toEqual([
      '| order_date | orders |    revenue | note |',
      '| ---------- | ------ | ---------- | ---- |',
      '| 2026-10-28 |   1016 |   6,051.66 | late |',
      '| 2026-10-29 |     13 | 211,109.10 |      |',
    ]);
  });

  it("a seed's rows as agate types its CSV (seed --show): every column, whole numbers grouped too, dates right-aligned, a last row of ... when cut", () => {
    const columns = ['id', 'name', 'amount', 'day', 'c5', 'c6', 'c7'];
    const table = showTable(columns, [[1000, 'Ann', 1.5, '2026-01-02', 'x', 'y', 'z'], [2, 'Bo', null, '2026-01-03', 'x', 'y', 'z']], { maxColumns: Infinity, truncated: true, csvTypes: true });
    expect(table.split('\n')).toEqual([
      '|    id | name | amount |        day | c5 | c6 | c7 |',
      '| ----- | ---- | ------ | ---------- | -- | -- | -- |',
      '| 1,000 | Ann  |    1.5 | 2026-01-02 | x  | y  | z  |',
      '|     2 | Bo   |        | 2026-01-03 | x  | y  | z  |',
      '|   ... | ...  |    ... |        ... | ... | ... | ... |',
    ]);
    // The same rows as a query result (show): whole numbers as they are, the seventh column elided, dates as text.
    const asResult = showTable(columns, [[1000, 'Ann', 1.5, '2026-01-02', 'x', 'y', 'z']]).split('\n');
    expect([asResult[0], asResult[2]]).toEqual(['|   id | name | amount | day        | c5 | c6 | ... |', '| 1000 | Ann  |    1.5 | 2026-01-02 | x  | y  | ... |']);
  });
});

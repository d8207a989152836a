import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/** A built example warehouse; every case below runs on a copy and must leave it exactly as it was. */
let base: string;
beforeAll(() => {
  base = exampleProject();
  expect(runCli(['build', '--project-dir', base]).code).toBe(0);
});

const DAILY = 'models/marts/daily_revenue.sql';
const MONTHLY = 'models/marts/monthly_revenue.sql';

/** Run the CLI on a copy of the built example with `files` written over it; the warehouse must not change. */
function runEdited(files: Readonly<Record<string, string | ((text: string) => string)>>, args: readonly string[]): CliResult & { seen: string } {
  const dir = exampleProject();
  writeFileSync(join(dir, 'warehouse.db'), readFileSync(join(base, 'warehouse.db')));
  for (const [path, text] of Object.entries(files)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof text === 'string' ? text : text(readFileSync(file, 'utf8')));
  }
  const before = warehouseSnapshot(join(dir, 'warehouse.db'));
  const result = runCli([...args, '--project-dir', dir]);
  expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
  const seen = `${result.stderr}\n${result.stdout}`.replaceAll(dir, '<project>');
  expect(seen).not.toMatch(/\n\s+at .*\.js:\d+/);
  expect(seen).not.toMatch(/\[object Object\]|Internal error/);
  return { ...result, seen };
}

describe('one error, not a cascade', () => {
  it('a model that fails to render is the one error; its dependents are skipped because of it', () => {
    const r = runEdited({ [DAILY]: (t) => t.replace('where load_date <= {{ as_of() }}', 'where load_date <= {{ as_off() }}') }, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Error: models/marts/daily_revenue.sql:17: 'as_off' is not a macro or function. Did you mean 'as_of'?");
    expect(r.stderr).toContain('SKIP relation main.monthly_revenue: skipped because model.brightcart.daily_revenue failed to render');
    expect(r.seen).not.toMatch(/not found/);
    expect(r.seen.match(/is not a macro or function/g)).toHaveLength(1);
  });

  it('a model two steps downstream names the model that failed, not the one in between', () => {
    const r = runEdited({
      [DAILY]: (t) => t.replace('where load_date <= {{ as_of() }}', 'where load_date <= {{ as_off() }}'),
      'models/marts/yearly_revenue.sql': "select substr(month, 1, 4) as year, sum(revenue) as revenue from {{ ref('monthly_revenue') }} group by 1",
    }, ['build']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SKIP relation main.yearly_revenue: skipped because model.brightcart.daily_revenue failed to render');
    expect(r.seen).not.toMatch(/not found/);
  });
});

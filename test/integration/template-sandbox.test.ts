import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/**
 * The sandbox holds on every path a template takes through the CLI: a model,
 * a macro it calls, a hook, a data test's arguments in yml, a singular test,
 * both render passes of an incremental model. Each escape would write a
 * file through Node's fs; the run must stop with the sandbox's message at
 * file:line, write no file, and leave the warehouse as it was.
 */
const escape = (marker: string) => `(range.constructor('return process')()).getBuiltinModule('fs').writeFileSync('${marker}', 'escaped')`;

const BASE: Readonly<Record<string, string>> = {
  'project.yml': 'name: p\n',
  'seeds/s.csv': 'id,amount\n1,10\n2,20\n',
  'models/m.sql': "select id, amount from {{ ref('s') }}\n",
  'models/m2.sql': "{{ config(materialized='incremental', unique_key='id') }}\nselect id, amount from {{ ref('m') }}\n",
};

function place(where: string, payload: string): Record<string, string> {
  switch (where) {
    case 'model':
      return { 'models/m.sql': `select id, amount\nfrom {{ ref('s') }}\nwhere {{ ${payload} }} is not null\n` };
    case 'macro':
      return { 'macros/x.sql': `{% macro x() %}\n{{ ${payload} }}\n{% endmacro %}\n`, 'models/m.sql': "select id, amount from {{ ref('s') }} where {{ x() }} 1 = 1\n" };
    case 'pre_hook':
      return { 'models/m.sql': `{{ config(pre_hook="select {{ ${payload.replaceAll("'", "\\'")} }}") }}\nselect id, amount from {{ ref('s') }}\n` };
    case 'incremental branch':
      return { 'models/m2.sql': `{{ config(materialized='incremental', unique_key='id') }}\nselect id, amount from {{ ref('m') }}\n{% if is_incremental() %}\nwhere {{ ${payload} }}\n{% endif %}\n` };
    case 'test arguments in yml':
      return { 'models/schema.yml': `models:\n  - name: m\n    columns:\n      - name: id\n        data_tests:\n          - accepted_values:\n              values: ["{{ ${payload.replaceAll('"', '\\"')} }}"]\n` };
    case 'singular test':
      return { 'tests/t.sql': `select * from {{ ref('m') }}\nwhere {{ ${payload} }}\n` };
    default:
      throw new Error(where);
  }
}

describe('the template sandbox through the CLI', () => {
  it.each(['model', 'macro', 'pre_hook', 'incremental branch', 'test arguments in yml', 'singular test'])('an escape in a %s is refused, writes nothing, changes nothing', (where) => {
    const dir = writeProject(BASE);
    expect(runCli(['build', '--project-dir', dir]).code).toBe(0);
    const db = join(dir, 'warehouse.db');
    const before = warehouseSnapshot(db);
    const marker = join(dir, 'escaped.txt');
    for (const [path, text] of Object.entries(place(where, escape(marker)))) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }

    const result = runCli(['build', '--project-dir', dir]);
    const seen = `${result.stdout}\n${result.stderr}`;
    expect(seen).toMatch(/(models|macros|tests)\/[\w./#[\]]+:\d+(:\d+)?: access to 'constructor' is not allowed in templates/);
    expect(result.code).toBe(where.includes('hook') ? 1 : 2); // a hook renders when its model runs: a node failure, exit 1
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(existsSync(marker)).toBe(false);
    expect(warehouseSnapshot(db)).toEqual(before);
  });
});

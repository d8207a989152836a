import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../../../src/api/parse-project.js';
import { writeProject } from '../../support/example-project.js';

/** manifest.json's macros as dbt writes them: unique_id, package, paths and each block's text. */
describe('manifest macros', () => {
  it('lists each macro and generic test block of the project with its macro_sql, and an installed package\'s under its own name', () => {
    const cents = '{% macro cents(column) -%}\n  cast({{ column }} * 100 as integer)\n{%- endmacro %}';
    const dir = writeProject({
      'project.yml': 'name: shop\n',
      'macros/money.sql': `${cents}\n\n{% macro euros(c) %}{{ c }}{% endmacro %}\n`,
      'tests/generic/is_even.sql': '{% test is_even(model, column_name) %}select * from {{ model }} where {{ column_name }} % 2 = 1{% endtest %}\n',
      'dbt_packages/helpers/dbt_project.yml': "name: helpers\nversion: '1.0'\nconfig-version: 2\n",
      'dbt_packages/helpers/macros/h.sql': '{% macro helper() %}1{% endmacro %}\n',
    });
    const { manifestPath } = parseProject({ projectDir: dir });
    const macros = JSON.parse(readFileSync(manifestPath, 'utf8')).macros as Record<string, Record<string, unknown>>;
    expect(macros['macro.shop.cents']).toMatchObject({ name: 'cents', resource_type: 'macro', package_name: 'shop', original_file_path: 'macros/money.sql', path: 'money.sql', macro_sql: cents });
    expect(macros['macro.shop.euros']).toMatchObject({ macro_sql: '{% macro euros(c) %}{{ c }}{% endmacro %}' });
    expect(macros['macro.shop.test_is_even']).toMatchObject({ name: 'test_is_even', original_file_path: 'tests/generic/is_even.sql' });
    expect(macros['macro.helpers.helper']).toMatchObject({ package_name: 'helpers', name: 'helper' });
  });
});

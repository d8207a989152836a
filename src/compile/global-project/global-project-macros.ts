import type { MacroFile } from '../../project/project.js';
import { AGGREGATE_MACROS } from './aggregate-macros.js';
import { ARRAY_MACROS } from './array-macros.js';
import { CAST_MACROS } from './cast-macros.js';
import { DATE_MACROS } from './date-macros.js';
import { RELATION_MACROS } from './relation-macros.js';
import { SET_MACROS } from './set-macros.js';
import { SPINE_MACROS } from './spine-macros.js';
import { SQL_HEADER_MACROS } from './sql-header-macros.js';
import { STRING_MACROS } from './string-macros.js';
import { TIMESTAMP_MACROS } from './timestamp-macros.js';
import { TYPE_MACROS } from './type-macros.js';

const file = (name: string, source: string): MacroFile => {
  const path = `dbt/macros/utils/${name}.sql`;
  return { path, absPath: path, source };
};

/**
 * The macro files of dbt's global project that mini-dbt ships (package `dbt`):
 * the cross-database macros, each dispatching as dbt's do
 * (`adapter.dispatch('<name>', 'dbt')`), with a default__ and, where SQLite
 * needs its own SQL, a sqlite__ implementation.
 */
export const GLOBAL_PROJECT_MACROS: readonly MacroFile[] = [
  file('dates', DATE_MACROS),
  file('strings', STRING_MACROS),
  file('data_types', TYPE_MACROS),
  file('casts', CAST_MACROS),
  file('aggregates', AGGREGATE_MACROS),
  file('set_operators', SET_MACROS),
  file('timestamps', TIMESTAMP_MACROS),
  file('arrays', ARRAY_MACROS),
  file('date_spine', SPINE_MACROS),
  file('relations', RELATION_MACROS),
  file('sql_header', SQL_HEADER_MACROS),
];

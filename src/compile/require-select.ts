import { ProjectError } from '../errors/project-error.js';
import { splitFirstStatement } from './single-statement.js';

/** Comments and whitespace before the first keyword. */
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;

/**
 * show's query must be one SELECT (`select`, `with ... select`, `values`): anything else (`delete from x`,
 * `create table`, two statements) is refused before the warehouse is touched. The connection it then runs
 * on is read-only too, so a write hidden in a `with` cannot run either.
 */
export function requireSelect(sql: string, what: string): string {
  const { end, second } = splitFirstStatement(sql);
  const first = sql.slice(0, end).trimEnd();
  const keyword = /^\w+/.exec(first.replace(LEADING, ''))?.[0]?.toLowerCase();
  if (second !== undefined || !keyword || !['select', 'with', 'values'].includes(keyword)) {
    const shown = (second !== undefined ? sql.slice(second) : first.replace(LEADING, '')).split('\n', 1)[0]!.trim();
    const problem = second !== undefined
      ? `a second statement starts at '${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}'`
      : `it starts with '${keyword ?? ''}'`;
    throw new ProjectError(`${what} must be a single SELECT: ${problem}; nothing was run`, {
      hint: 'show only reads: pass one select (or with ... select); to change the warehouse, use a model, a hook or run-operation',
    });
  }
  return first;
}

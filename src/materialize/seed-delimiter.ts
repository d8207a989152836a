/**
 * The `delimiter` config of a seed, checked as dbt's CSV reader checks it
 * (Python's csv module: exactly one character), and never a character that
 * CSV itself gives a meaning to.
 */
import { ProjectError } from '../errors/project-error.js';

export function seedDelimiter(value: unknown, file: string): string {
  if (value === undefined || value === null) return ',';
  const bad = (why: string) => new ProjectError(`invalid seed delimiter ${JSON.stringify(value)}: ${why}`, { location: { file }, hint: "use one character, e.g. delimiter: ';' or delimiter: '\\t'" });
  if (typeof value !== 'string') throw bad('it must be a string of one character');
  if (value === '') throw bad('it is empty');
  if ([...value].length !== 1) throw bad('it must be exactly one character');
  if (value === '"') throw bad('the double quote is the CSV quote character');
  if (value === '\n' || value === '\r') throw bad('a line break ends a row');
  return value;
}

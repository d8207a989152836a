import { dialect } from './current-engine.js';

/** Quote an identifier in the engine's dialect ("name", embedded double quotes doubled). */
export function quoteIdentifier(name: string): string {
  return dialect.quoteIdentifier(name);
}

/** Quote a SQL string literal in the engine's dialect ('text', embedded single quotes doubled). */
export function quoteLiteral(value: string): string {
  return dialect.quoteLiteral(value);
}

/**
 * A relation as the tool's own SQL names it: bare in main (as it always was, and as SQLite finds it
 * first), `"schema"."name"` in an attached schema.
 */
export function qualifiedName(schema: string, name: string): string {
  return schema === 'main' ? dialect.quoteIdentifier(name) : `${dialect.quoteIdentifier(schema)}.${dialect.quoteIdentifier(name)}`;
}

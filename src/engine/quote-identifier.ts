import { dialect } from './current-engine.js';

/** Quote an identifier in the engine's dialect ("name", embedded double quotes doubled). */
export function quoteIdentifier(name: string): string {
  return dialect.quoteIdentifier(name);
}

/** Quote a SQL string literal in the engine's dialect ('text', embedded single quotes doubled). */
export function quoteLiteral(value: string): string {
  return dialect.quoteLiteral(value);
}

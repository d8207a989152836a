import { isKeyExpression } from '../config/key-expression.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';

/** A unique_key entry as SQL: a column quoted, an expression as written (in parentheses). */
export function keySql(key: string): string {
  return isKeyExpression(key) ? `(${key})` : quoteIdentifier(key);
}

/** The key entries that are columns (the ones a model must produce, and an index can hold). */
export function keyColumns(keys: readonly string[]): string[] {
  return keys.filter((k) => !isKeyExpression(k));
}

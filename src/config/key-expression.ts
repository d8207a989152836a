/**
 * dbt documents `unique_key` as "a column name or expression". A key entry
 * holding anything but letters, digits, `_`, `$` and spaces (`state || county`,
 * `coalesce(a, b)`, `lower(email)`) is an expression: written into the SQL as
 * it is, not quoted as a column name, and not required among the model's
 * columns. A plain name (even one with a space) is a column.
 */
export function isKeyExpression(key: string): boolean {
  return /[^\p{L}\p{N}_$ ]/u.test(key);
}

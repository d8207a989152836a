/**
 * A PostgreSQL warehouse's locator (postgres://user@host:port/dbname, the
 * `path` the rest of the tool passes around) may name the schema a
 * connection works in, after `#schema=`: the address of a scratch schema of
 * the same database (a replay's copy), opened as the target's schema is.
 */
const MARK = '#schema=';

/** The locator of the same database working in `schema`. */
export function locatorInSchema(locator: string, schema: string): string {
  return `${locator.split(MARK)[0]}${MARK}${encodeURIComponent(schema)}`;
}

/** The schema a locator names, undefined for a plain one (the target's). */
export function schemaOfLocator(locator: string): string | undefined {
  const at = locator.indexOf(MARK);
  return at < 0 ? undefined : decodeURIComponent(locator.slice(at + MARK.length));
}

/**
 * The environment variables templates may read, an input of every cache of
 * parse results: the literal env_var('NAME') names, or all of them if any
 * name is computed.
 */
export function envNamesRead(templates: Iterable<string>): string[] | '*' {
  const names = new Set<string>();
  for (const text of templates) {
    if (!text.includes('env_var')) continue;
    const calls = text.match(/\benv_var\b/g)?.length ?? 0;
    const literal = [...text.matchAll(/\benv_var\s*\(\s*(['"])([^'"]*)\1/g)];
    if (literal.length !== calls) return '*';
    for (const match of literal) names.add(match[2]!);
  }
  return [...names].sort();
}

/** The values of `names` (all of the environment for '*'), sorted by name. */
export function envValues(names: readonly string[] | '*'): Record<string, string | undefined> {
  if (names === '*') return Object.fromEntries(Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return Object.fromEntries(names.map((name) => [name, process.env[name]]));
}

/** The variables every load depends on whatever its templates read: HOME (~/.dbt) and every DBT_ and MINI_DBT_ variable, sorted by name. */
export function toolEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { HOME: process.env.HOME };
  for (const [name, value] of Object.entries(process.env)) if (name.startsWith('DBT_') || name.startsWith('MINI_DBT_')) env[name] = value;
  return Object.fromEntries(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The Jinja a packages file may hold, as dbt renders it before reading the entries:
 * `{{ env_var('NAME') }}` and `{{ env_var('NAME', 'default') }}` (typically a token in a git
 * URL). Anything else in braces is refused, as mini-dbt does not render it.
 */
const ENV_VAR = /\{\{\s*env_var\(\s*(['"])([^'"]+)\1\s*(?:,\s*(['"])([^'"]*)\3\s*)?\)\s*\}\}/g;

export class PackagesJinjaError extends Error {}

export function renderEnvVars(text: string): string {
  const rendered = text.replace(ENV_VAR, (_m, _q: string, name: string, _q2: string | undefined, fallback: string | undefined) => {
    const value = process.env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    throw new PackagesJinjaError(`Env var required but not provided: '${name}'`);
  });
  if (/\{\{|\{%/.test(rendered)) {
    throw new PackagesJinjaError(`only {{ env_var('NAME') }} is rendered in a packages file, got ${JSON.stringify(text)}`);
  }
  return rendered;
}

/** A value of an entry with its strings rendered (lists too); undefined when it cannot be. */
export function renderedValue(value: unknown): unknown {
  try {
    if (typeof value === 'string') return renderEnvVars(value);
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? renderEnvVars(v) : v));
    return value;
  } catch {
    return value;
  }
}

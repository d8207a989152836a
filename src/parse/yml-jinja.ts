/** Text that holds a Jinja tag, expression or comment. */
export const JINJA = /\{[{%#]/;

/** Config keys rendered when they run, not when the yml is read: hooks and loaded_at_query (dbt's schema renderer skips them too). */
export const HOOK_KEYS: ReadonlySet<string> = new Set(['pre-hook', 'post-hook', 'pre_hook', 'post_hook', 'loaded_at_query']);

/** Whether a yml value (a string, or a list or mapping holding one) has Jinja to render. */
export function hasJinja(value: unknown): boolean {
  if (typeof value === 'string') return JINJA.test(value);
  if (Array.isArray(value)) return value.some(hasJinja);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasJinja);
  return false;
}

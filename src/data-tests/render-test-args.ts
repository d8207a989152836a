import type { JinjaEnvironment } from '../compile/jinja-environment.js';
import type { RenderState } from '../compile/render-state.js';

const CALL = /^\s*(ref|source)\s*\([\s\S]*\)\s*$/;

/** The template a test argument renders through, or undefined when it is a plain value. */
function templateOf(value: string): string | undefined {
  if (CALL.test(value)) return `{{ ${value.trim()} }}`;
  if (value.includes('{{') || value.includes('{%')) return value;
  return undefined;
}

/**
 * Render a test's arguments as dbt does: `to: ref('customers')` becomes the
 * relation, strings with Jinja are rendered, everything else is kept as is.
 */
export function renderTestArgs(jinja: JinjaEnvironment, path: string, value: unknown, state: RenderState): unknown {
  if (typeof value === 'string') {
    const template = templateOf(value);
    return template === undefined ? value : jinja.render(path, template, state).trim();
  }
  if (Array.isArray(value)) return value.map((v) => renderTestArgs(jinja, path, v, state));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderTestArgs(jinja, path, v, state)]));
  }
  return value;
}

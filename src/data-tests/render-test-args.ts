import type { JinjaEnvironment } from '../compile/jinja-environment.js';
import type { RenderState } from '../compile/render-state.js';

const CALL = /^\s*(ref|source)\s*\([\s\S]*\)\s*$/;

/** The template a test argument renders through, or undefined when it is a plain value. */
function templateOf(value: string): string | undefined {
  if (CALL.test(value)) return `{{ ${value.trim()} }}`;
  if (value.includes('{{') || value.includes('{%')) return value;
  return undefined;
}

/** A value that is one `{{ expression }}` and nothing else. */
const SINGLE_EXPRESSION = /^\s*\{\{-?((?:(?!\{\{|\}\}|\{%|%\}|\{#)[\s\S])*?)-?\}\}\s*$/;
const CAPTURE = 'mini_dbt_test_arg';

const isPlainData = (v: unknown): boolean =>
  typeof v === 'number' || typeof v === 'boolean' || Array.isArray(v) || (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype);

/**
 * One `{{ expression }}` rendered natively, as dbt's add_rendered_test_kwargs renders a test's
 * arguments: `values: "{{ var('model_types') }}"` is the var's list, a number stays a number.
 * Anything else (text, a relation) is its text, as rendering the value gives it; undefined for none.
 */
function nativeValue(jinja: JinjaEnvironment, path: string, value: string, state: RenderState): unknown {
  const single = SINGLE_EXPRESSION.exec(value);
  if (!single) return undefined;
  let captured: unknown;
  jinja.render(path, `{{ ${CAPTURE}(${single[1]}) }}`, state, {
    [CAPTURE]: (v: unknown) => {
      captured = v;
      return '';
    },
  });
  if (isPlainData(captured)) return captured;
  // Text, a relation: what rendering it as text gives (the expression is not evaluated twice).
  return captured === null || captured === undefined ? undefined : String(captured).trim();
}

/**
 * Render a test's arguments as dbt does: `to: ref('customers')` becomes the
 * relation, strings with Jinja are rendered (one `{{ expression }}` giving a
 * list, mapping, number or boolean is that value), everything else is kept as is.
 */
export function renderTestArgs(jinja: JinjaEnvironment, path: string, value: unknown, state: RenderState): unknown {
  if (typeof value === 'string') {
    const template = templateOf(value);
    if (template === undefined) return value;
    const native = template === value ? nativeValue(jinja, path, value, state) : undefined;
    return native !== undefined ? native : jinja.render(path, template, state).trim();
  }
  if (Array.isArray(value)) return value.map((v) => renderTestArgs(jinja, path, v, state));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderTestArgs(jinja, path, v, state)]));
  }
  return value;
}

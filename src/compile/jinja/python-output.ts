import { internals } from './nunjucks-internals.js';
import { isPlainDict, pythonStr } from './python-repr.js';

/**
 * What `{{ value }}` writes, as Jinja writes it: Python's str() of the value
 * (`None`, `True`, `False`, `[1, 'a']` as `[1, 'a']`), and nothing for an
 * undefined value (a missing key, `model.batch.id` outside a batch), as
 * Jinja's Undefined renders. Dicts `{'a': 1}`, tuples `(1, 2)` and floats
 * (`1e-05`) as Python writes them; strings, relations and safe strings are
 * written as they always were.
 */
export function jinjaOutputText(value: unknown): unknown {
  if (value === undefined) return '';
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'function' || Array.isArray(value) || value instanceof Map || isPlainDict(value)) return pythonStr(value);
  return value;
}

let patched = false;

/** Route nunjucks' output of every `{{ }}` through jinjaOutputText (its own suppressValue writes '' for none and 'true'). */
export function installPythonOutput(): void {
  if (patched) return;
  patched = true;
  const runtime = internals.runtime as Record<string, unknown>;
  const original = runtime.suppressValue as (value: unknown, autoescape: boolean) => unknown;
  runtime.suppressValue = function suppressPythonValue(this: unknown, value: unknown, autoescape: boolean): unknown {
    return original.call(this, jinjaOutputText(value), autoescape);
  };
}

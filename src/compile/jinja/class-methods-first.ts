import { internals } from './nunjucks-internals.js';

let installed = false;

/**
 * nunjucks' Jinja compat answers `x.get`, `x.items`, `x.keys`, `x.update`...
 * with dict methods on every JavaScript object. A context object with a
 * class of its own (a Relation, an agate table, a column) keeps its own
 * method of that name: `relation.get('metadata', {})` is the relation's, as
 * dbt's relations are mappings with their own `get`. Install after the
 * Jinja compat patch.
 */
export function installClassMethodsFirst(): void {
  if (installed) return;
  installed = true;
  const runtime = internals.runtime as Record<string, (this: unknown, ...args: unknown[]) => unknown>;
  const previous = runtime.memberLookup!;
  runtime.memberLookup = function classMethodLookup(this: unknown, obj: unknown, val: unknown, ...rest: unknown[]): unknown {
    if (typeof val === 'string' && obj !== null && typeof obj === 'object' && !Array.isArray(obj)) {
      const proto = Object.getPrototypeOf(obj) as object | null;
      // A method's descriptor only: reading a getter (a date's `year`, a loop's `length`) on the prototype itself would run it without its object.
      const descriptor = proto !== null && proto !== Object.prototype ? Object.getOwnPropertyDescriptor(proto, val) : undefined;
      if (descriptor && typeof descriptor.value === 'function') {
        const method = descriptor.value as (...a: unknown[]) => unknown;
        return (...args: unknown[]) => method.apply(obj, args);
      }
    }
    return previous.call(this, obj, val, ...rest);
  };
}

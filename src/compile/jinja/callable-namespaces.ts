import { internals } from './nunjucks-internals.js';

const CALLABLE_NAMESPACE = Symbol('mini-dbt callable namespace');

/**
 * A function that also carries attributes (`modules.datetime.datetime(...)`
 * and `modules.datetime.datetime.now()`): nunjucks wraps functions it looks
 * up as members, which loses the attributes; marked ones are returned as they are.
 */
export function callableNamespace<T extends (...args: never[]) => unknown, P extends object>(fn: T, attributes: P): T & P {
  return Object.assign(fn, attributes, { [CALLABLE_NAMESPACE]: true });
}

let patched = false;

export function installCallableNamespaces(): void {
  if (patched) return;
  patched = true;
  const { runtime } = internals;
  const previous = runtime.memberLookup as (this: unknown, obj: unknown, val: unknown, ...rest: unknown[]) => unknown;
  runtime.memberLookup = function memberLookup(this: unknown, obj: unknown, val: unknown, ...rest: unknown[]): unknown {
    if (obj !== null && (typeof obj === 'object' || typeof obj === 'function') && typeof val === 'string') {
      const member = (obj as Record<string, unknown>)[val];
      if (typeof member === 'function' && (member as unknown as Record<symbol, unknown>)[CALLABLE_NAMESPACE]) return member;
    }
    return previous.call(this, obj, val, ...rest);
  };
}

/**
 * What a template may reach: the rules of mini-dbt's template sandbox, in the
 * spirit of Jinja's SandboxedEnvironment (which dbt renders every template
 * in). SECURITY.md states the contract; install-sandbox.ts applies these
 * rules to every way nunjucks (and the simple-template fast path) reads a
 * name, an attribute or calls a function.
 *
 * - An attribute that starts with `_`, or is `constructor` or `prototype`,
 *   is refused on every value, unless it is an item the template's own data
 *   holds (a dict key or list slot: `{'_id': 1}._id` reads the item, as Jinja
 *   falls back from getattr to getitem).
 * - On a function, its internals (`call`, `apply`, `bind`, `caller`,
 *   `callee`, `arguments`) are refused.
 * - JavaScript's reflective intrinsics (Function and its async/generator
 *   kin, Object, Reflect, Proxy, eval, globalThis, process, the built-in
 *   prototypes and every method on Object, Object.prototype, Function and
 *   Function.prototype) are refused as values, however a template got hold of
 *   them: looked up, returned by a call, or read through a filter.
 */

/** The error every refused access raises; its message is what the user sees at file:line. */
export class SandboxError extends Error {}

export function refusedAccess(name: string): SandboxError {
  return new SandboxError(`access to '${name}' is not allowed in templates`);
}

const ALWAYS_UNSAFE = new Set(['constructor', 'prototype']);
const FUNCTION_INTERNALS = new Set(['call', 'apply', 'bind', 'caller', 'callee', 'arguments']);

function intrinsics(): Map<unknown, string> {
  const found = new Map<unknown, string>();
  const add = (value: unknown, name: string): void => {
    if ((typeof value === 'function' || (typeof value === 'object' && value !== null)) && !found.has(value)) found.set(value, name);
  };
  const fnCtor = (fn: () => unknown): unknown => Object.getPrototypeOf(fn).constructor;
  add(Function, 'Function');
  add(fnCtor(async () => undefined), 'AsyncFunction');
  add(fnCtor(function* generator() { /* only its constructor is wanted */ }), 'GeneratorFunction');
  add(fnCtor(async function* asyncGenerator() { /* only its constructor is wanted */ }), 'AsyncGeneratorFunction');
  add(Object, 'Object');
  add(Reflect, 'Reflect');
  add(Proxy, 'Proxy');
  add(globalThis, 'globalThis');
  add(globalThis.eval, 'eval');
  add(process, 'process');
  for (const [owner, label] of [[Object, 'Object'], [Object.prototype, 'Object.prototype'], [Function, 'Function'], [Function.prototype, 'Function.prototype'], [Reflect, 'Reflect']] as const) {
    for (const key of Reflect.ownKeys(owner)) {
      const descriptor = Object.getOwnPropertyDescriptor(owner, key)!;
      const name = `${label}.${String(key)}`;
      add(descriptor.value, name);
      add(descriptor.get, name);
      add(descriptor.set, name);
    }
  }
  for (const ctor of [Object, Function, Array, String, Number, Boolean, Symbol, BigInt, Date, RegExp, Error, Map, Set, WeakMap, WeakSet, Promise]) {
    add(ctor.prototype, `${ctor.name}.prototype`);
  }
  add(Object.prototype, 'Object.prototype');
  add(Function.prototype, 'Function.prototype');
  return found;
}

let forbidden: Map<unknown, string> | undefined;

/** The name of a refused intrinsic, or undefined for a value a template may hold. */
export function forbiddenValueName(value: unknown): string | undefined {
  if (value === null || (typeof value !== 'function' && typeof value !== 'object')) return undefined;
  forbidden ??= intrinsics();
  return forbidden.get(value);
}

/** Throws when a template is about to hold a refused intrinsic; returns the value otherwise. */
export function guardValue<T>(value: T): T {
  const name = forbiddenValueName(value);
  if (name !== undefined) throw refusedAccess(name);
  return value;
}

/** Whether `obj` is a template's own data: a list, or a plain dict (its own slots are items). */
function isData(obj: object): boolean {
  if (Array.isArray(obj)) return true;
  const proto = Object.getPrototypeOf(obj) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The key a JavaScript property access would use, as text. */
export function keyText(key: unknown): string {
  return typeof key === 'symbol' ? key.toString() : String(key);
}

/** The refused attribute name of `obj[key]`, or undefined when the access is allowed. */
export function unsafeAttribute(obj: unknown, key: unknown): string | undefined {
  if (typeof key === 'number') return undefined;
  if (typeof key === 'symbol') return keyText(key);
  const name = String(key);
  if (typeof obj === 'function' && FUNCTION_INTERNALS.has(name)) return name;
  if (!name.startsWith('_') && !ALWAYS_UNSAFE.has(name)) return undefined;
  if (obj !== null && typeof obj === 'object' && isData(obj)) {
    const own = Object.getOwnPropertyDescriptor(obj, name);
    if (own && !own.get && !own.set) return undefined;
  }
  return name;
}

/** `obj[key]` as a template may read it: refused attributes and intrinsics throw. */
export function readAttribute(obj: unknown, key: unknown): unknown {
  const unsafe = unsafeAttribute(obj, key);
  if (unsafe !== undefined) throw refusedAccess(unsafe);
  if (obj === null || obj === undefined) return undefined;
  return guardValue((obj as Record<string, unknown>)[keyText(key)]);
}

/**
 * A bare name as a template may read it, given what the ordinary lookup
 * found: a member every object inherits (`constructor`, `toString`,
 * `__proto__`...) is not a variable; the unsafe ones are refused, the rest
 * are undefined, as an unknown name is.
 */
export function guardName(name: string, value: unknown): unknown {
  const refused = forbiddenValueName(value);
  if (refused === undefined) return value;
  if (Object.prototype.hasOwnProperty.call(Object.prototype, name)) {
    if (name.startsWith('_') || ALWAYS_UNSAFE.has(name)) throw refusedAccess(name);
    return undefined;
  }
  throw refusedAccess(refused);
}

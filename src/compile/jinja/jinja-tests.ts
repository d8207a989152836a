import type nunjucks from 'nunjucks';
import { isSafeString } from './nunjucks-internals.js';
import { pyContains } from './python-collection-methods.js';

const isMapping = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v) && !isSafeString(v);

/** Jinja tests nunjucks lacks: `is none`, `is sequence`, `is boolean`, `is in`, and the operator aliases. */
export const JINJA_TESTS: Readonly<Record<string, (value: unknown, other?: unknown) => boolean>> = {
  none: (v) => v === null || v === undefined,
  iterable: (v) => typeof v === 'string' || isSafeString(v) || (v !== null && typeof v === 'object' && (Symbol.iterator in v || isMapping(v))),
  // Jinja's sequence is anything with a length and items: lists, strings and dicts.
  sequence: (v) => Array.isArray(v) || typeof v === 'string' || isSafeString(v) || isMapping(v),
  list: (v) => Array.isArray(v),
  boolean: (v) => typeof v === 'boolean',
  true: (v) => v === true,
  false: (v) => v === false,
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => typeof v === 'number' && !Number.isInteger(v),
  mapping: isMapping,
  in: (v, container) => {
    try {
      return pyContains(container, v);
    } catch {
      return false;
    }
  },
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => (a as number) < (b as number),
  '<=': (a, b) => (a as number) <= (b as number),
  '>': (a, b) => (a as number) > (b as number),
  '>=': (a, b) => (a as number) >= (b as number),
};

export function installJinjaTests(env: nunjucks.Environment): void {
  const target = env as unknown as { addTest(name: string, test: (...args: never[]) => boolean): void; filters: object; tests: object };
  for (const [name, test] of Object.entries(JINJA_TESTS)) target.addTest(name, test);
  // `'upper' is filter`, `'odd' is test`: whether the environment has one of that name.
  target.addTest('filter', (name: unknown) => Object.prototype.hasOwnProperty.call(target.filters, String(name)));
  target.addTest('test', (name: unknown) => Object.prototype.hasOwnProperty.call(target.tests, String(name)));
}

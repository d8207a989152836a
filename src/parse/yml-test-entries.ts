/**
 * Data test entries of property yml files (`data_tests:` of models, seeds, sources and columns) as
 * dbt's TestBuilder treats them at parse: their config values are rendered there, their arguments
 * are left to the test's own rendering (data-tests/).
 */
import { TEST_CONFIG_KEYS } from '../compile/test-node.js';
import type { ColumnProperties } from '../project/project.js';
import { hasJinja, HOOK_KEYS } from './yml-jinja.js';

type Path = readonly (string | number)[];

/** Renders one yml string natively (to the expression's own value) at its path in the entry. */
export type RenderValue = (text: string, path: Path) => unknown;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A data test entry's body: `{unique: {...}}`'s mapping, or the entry itself for `{test_name: unique, ...}`. */
function testBody(entry: unknown): { readonly key?: string; readonly body: Record<string, unknown> } | undefined {
  if (!isRecord(entry)) return undefined;
  if (typeof entry.test_name === 'string') return { body: entry };
  const keys = Object.keys(entry);
  return keys.length === 1 && isRecord(entry[keys[0]!]) ? { key: keys[0]!, body: entry[keys[0]!] as Record<string, unknown> } : undefined;
}

/** The values of data test entries dbt renders at parse: their config's, and the config keys written next to the arguments. */
export function testConfigValues(tests: readonly unknown[], columns: readonly ColumnProperties[]): unknown[] {
  return [...tests, ...columns.flatMap((c) => c.tests)].map((entry) => {
    const found = testBody(entry);
    if (!found) return undefined;
    return [found.body.config, ...TEST_CONFIG_KEYS.map((k) => found.body[k])];
  });
}

/**
 * A data test entry with its config values rendered, as dbt's TestBuilder renders them at parse
 * (`config: {enabled: "{{ not var('x', false) }}"}` is `true`): each string value of its `config:`
 * and of the config keys next to its arguments (`severity:`, `where:`...), natively, in the yml
 * context; lists and mappings as written; the arguments are left for the test's own rendering.
 */
function renderTestEntry(entry: unknown, render: RenderValue, path: Path): unknown {
  const found = testBody(entry);
  if (!found || !hasJinja(testConfigValues([entry], []))) return entry;
  const at: Path = found.key === undefined ? path : [...path, found.key];
  const body: Record<string, unknown> = { ...found.body };
  for (const key of TEST_CONFIG_KEYS) {
    if (typeof body[key] === 'string') body[key] = render(body[key], [...at, key]);
  }
  if (isRecord(body.config)) {
    body.config = Object.fromEntries(Object.entries(body.config).map(([key, value]) =>
      [key, typeof value === 'string' && !HOOK_KEYS.has(key) ? render(value, [...at, 'config', key]) : value]));
  }
  return found.key === undefined ? body : { [found.key]: body };
}

/** Each data test entry of a list rendered as renderTestEntry says; `path` is the list's in its yml entry. */
export function renderTests(tests: readonly unknown[], render: RenderValue, path: Path): unknown[] {
  return tests.map((entry, i) => renderTestEntry(entry, render, [...path, i]));
}

import { ProjectError } from '../errors/project-error.js';
import type { SourceLocation } from '../project/project.js';
import { TEST_CONFIG_KEYS } from '../compile/test-node.js';

/** One entry of a `data_tests:` / `tests:` list, normalized. */
export interface TestEntry {
  /** The test as written, possibly namespaced (`dbt_utils.expression_is_true`). */
  readonly testName: string;
  readonly namespace?: string;
  /** A `name:` given by the user, replacing the synthesized one. */
  readonly customName?: string;
  readonly args: Record<string, unknown>;
  readonly config: Record<string, unknown>;
  readonly description?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Accepts dbt's forms: `- unique`, `- accepted_values: {values: [...], quote: false}`,
 * `- relationships: {to: ref('x'), field: id, config: {severity: warn}}`, the
 * top-level config keys of older projects (`severity: warn` next to the
 * arguments), `arguments:` (1.10), and `- name: my_test\n  test_name: unique`.
 */
export function parseTestEntry(entry: unknown, location: SourceLocation): TestEntry {
  let testName: string;
  let body: Record<string, unknown>;
  if (typeof entry === 'string') {
    testName = entry;
    body = {};
  } else if (isRecord(entry) && typeof entry.test_name === 'string') {
    const { test_name: name, ...rest } = entry;
    testName = name;
    body = rest;
  } else if (isRecord(entry) && Object.keys(entry).length === 1) {
    testName = Object.keys(entry)[0]!;
    const value = entry[testName];
    if (value !== null && value !== undefined && !isRecord(value)) {
      throw new ProjectError(`test '${testName}': its arguments must be a mapping`, { location });
    }
    body = { ...(value ?? {}) };
  } else {
    throw new ProjectError(`a test must be a name (- unique) or a mapping with one test name (- accepted_values: {values: [...]}), got ${JSON.stringify(entry)}`, { location });
  }
  if (!/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)?$/.test(testName)) {
    throw new ProjectError(`'${testName}' is not a valid test name`, { location });
  }
  const dot = testName.indexOf('.');
  const namespace = dot > 0 ? testName.slice(0, dot) : undefined;
  const bare = dot > 0 ? testName.slice(dot + 1) : testName;

  const config: Record<string, unknown> = {};
  const args: Record<string, unknown> = {};
  let customName: string | undefined;
  let description: string | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'config') {
      if (value !== null && value !== undefined && !isRecord(value)) throw new ProjectError(`test '${testName}': config must be a mapping`, { location });
      Object.assign(config, value ?? {});
    } else if (key === 'arguments' && isRecord(value)) {
      Object.assign(args, value);
    } else if (key === 'name') {
      customName = String(value);
    } else if (key === 'description') {
      description = String(value);
    } else if (TEST_CONFIG_KEYS.includes(key)) {
      config[key] = value;
    } else {
      args[key] = value;
    }
  }
  return { testName: bare, namespace, customName, args, config, description };
}

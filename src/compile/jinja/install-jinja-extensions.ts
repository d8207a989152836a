import type nunjucks from 'nunjucks';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { installCallableNamespaces } from './callable-namespaces.js';
import { installDoTag } from './do-tag.js';
import { asBool, asNative, asNumber, asText } from './filters/as-type-filters.js';
import { COLLECTION_FILTERS } from './filters/collection-filters.js';
import { fromjson, tojson } from './filters/json-filters.js';
import { installJinjaTests } from './jinja-tests.js';
import { installLoopControls } from './loop-controls.js';
import { installMacroReturn, macroReturn } from './return-value.js';
import { namespace, SETATTR_GLOBAL, setAttribute } from './namespace.js';
import { percentFormat } from './percent-format.js';
import { unpack, UNPACK_GLOBAL } from './set-unpacking.js';
import { installPythonOperators } from './python-operators.js';
import { installPythonOutput, jinjaOutputText } from './python-output.js';
import { isSafeString } from './nunjucks-internals.js';
import { aliasLimitMessage, isAliasLimitError, MAX_YAML_ALIAS_COUNT } from '../../project/yaml-alias-limit.js';

/** Globals every template sees whatever the render (the per-render dbt context is separate). */
const GLOBALS: Readonly<Record<string, unknown>> = {
  namespace,
  [SETATTR_GLOBAL]: setAttribute,
  [UNPACK_GLOBAL]: unpack,
  return: macroReturn,
  tojson,
  fromjson,
  toyaml: (value: unknown) => stringifyYaml(value),
  fromyaml,
  zip: (...lists: unknown[][]) => {
    const n = Math.min(...lists.map((l) => (Array.isArray(l) ? l.length : 0)));
    return Array.from({ length: Number.isFinite(n) ? n : 0 }, (_, i) => lists.map((l) => l[i]));
  },
  set: (items?: unknown) => (Array.isArray(items) ? [...new Set(items)] : []),
  print: () => '',
};

/** dbt's fromyaml(), with alias expansion limited as in every other YAML the tool reads. */
function fromyaml(text: unknown): unknown {
  try {
    return parseYaml(String(text), { maxAliasCount: MAX_YAML_ALIAS_COUNT }) as unknown;
  } catch (err) {
    throw isAliasLimitError(err) ? new Error(`fromyaml(): ${aliasLimitMessage()}`) : err;
  }
}

/**
 * Close the gaps between nunjucks and the Jinja dbt projects are written in
 * (reference section 13.2): tags (do, break, continue), `return()`, Python
 * operators, namespace(), and Jinja's and dbt's extra filters and tests.
 */
export function installJinjaExtensions(env: nunjucks.Environment): void {
  installMacroReturn();
  installPythonOperators();
  installPythonOutput();
  installCallableNamespaces();
  installDoTag(env);
  installLoopControls(env);
  installJinjaTests(env);
  for (const [name, filter] of Object.entries(COLLECTION_FILTERS)) env.addFilter(name, filter as (...args: unknown[]) => unknown);
  env.addFilter('tojson', tojson);
  env.addFilter('format', (format: unknown, ...args: unknown[]) => percentFormat(String(format), args.length === 1 && typeof args[0] === 'object' && !Array.isArray(args[0]) ? args[0] : args));
  // Python's str(): `none | string` is 'None' (nunjucks' own filter fails on it), an undefined value ''.
  env.addFilter('string', (value: unknown) => (typeof value === 'string' || isSafeString(value) ? value : String(jinjaOutputText(value))));
  env.addFilter('as_bool', asBool);
  env.addFilter('as_number', asNumber);
  env.addFilter('as_text', asText);
  env.addFilter('as_native', asNative);
  for (const [name, value] of Object.entries(GLOBALS)) env.addGlobal(name, value);
}

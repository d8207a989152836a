import type nunjucks from 'nunjucks';
import { parse as parseYaml, stringify as stringifyYaml, type Tags } from 'yaml';
import { installCallSpreading } from './call-spreading.js';
import { installCallableNamespaces } from './callable-namespaces.js';
import { installMacroBinding } from './macro-binding.js';
import { installFrameSet } from './frame-set.js';
import { installNestedBraces } from './nested-braces.js';
import { installForLoops } from './for-loops.js';
import { installSetBlock } from './set-block.js';
import { installBlockParsers } from './block-parsers.js';
import { installParseErrors } from './parse-errors.js';
import { installPythonStringLiterals } from './python-string-literal.js';
import { installWithBlock } from './with-block.js';
import { installPythonCollectionMethods } from './python-collection-methods.js';
import { installTestArguments } from './test-arguments.js';
import { installPythonTruth } from './python-truth.js';
import { installDoTag } from './do-tag.js';
import { asBool, asNative, asNumber, asText } from './filters/as-type-filters.js';
import { COLLECTION_FILTERS } from './filters/collection-filters.js';
import { fromjson, tojson, tojsonFilter } from './filters/json-filters.js';
import { GROUPING_FILTERS } from './filters/grouping-filters.js';
import { NUMBER_FILTERS } from './filters/number-filters.js';
import { SORTING_FILTERS } from './filters/sorting-filters.js';
import { TEXT_FILTERS } from './filters/text-filters.js';
import { PYTHON_GLOBALS } from './python-globals.js';
import { installJinjaTests } from './jinja-tests.js';
import { installLoopControls } from './loop-controls.js';
import { installMacroReturn, macroReturn } from './return-value.js';
import { namespace, SETATTR_GLOBAL, setAttribute } from './namespace.js';
import { percentFormat } from './percent-format.js';
import { unpack, UNPACK_GLOBAL } from './set-unpacking.js';
import { installPythonOperators } from './python-operators.js';
import { installPythonOutput, jinjaOutputText } from './python-output.js';
import { isSafeString } from './nunjucks-internals.js';
import { splitKeywordArgs } from '../keyword-args.js';
import { aliasLimitMessage, isAliasLimitError, MAX_YAML_ALIAS_COUNT } from '../../project/yaml-alias-limit.js';

/** Globals every template sees whatever the render (the per-render dbt context is separate). */
const GLOBALS: Readonly<Record<string, unknown>> = {
  namespace,
  [SETATTR_GLOBAL]: setAttribute,
  [UNPACK_GLOBAL]: unpack,
  return: macroReturn,
  tojson,
  fromjson,
  toyaml,
  fromyaml,
  ...PYTHON_GLOBALS,
  print: () => '',
};

/** YAML 1.1's booleans as PyYAML reads them: yes/no/on/off/true/false, never a lone y or n. */
function pyyamlBooleans(tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag !== 'object' || tag.tag !== 'tag:yaml.org,2002:bool' || !(tag.test instanceof RegExp)) return tag;
    const truthy = tag.test.test('true');
    return { ...tag, test: truthy ? /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/ : /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/ };
  }) as Tags;
}

/** dbt's fromyaml(text, default=none): YAML 1.1 as PyYAML reads it, alias expansion limited as in every other YAML the tool reads. */
function fromyaml(text: unknown, ...args: unknown[]): unknown {
  const { positional, keywords } = splitKeywordArgs(args);
  try {
    return parseYaml(String(text), { maxAliasCount: MAX_YAML_ALIAS_COUNT, version: '1.1', customTags: pyyamlBooleans }) as unknown;
  } catch (err) {
    if (isAliasLimitError(err)) throw new Error(`fromyaml(): ${aliasLimitMessage()}`);
    return keywords.default ?? positional[0] ?? null;
  }
}

/** dbt's toyaml(value, default=none, sort_keys=false): block style as PyYAML's safe_dump writes it. */
function toyaml(value: unknown, ...args: unknown[]): string {
  const { positional, keywords } = splitKeywordArgs(args);
  const sortKeys = Boolean(keywords.sort_keys ?? positional[1] ?? false);
  // YAML 1.1 with PyYAML's booleans and quoting: 'yes', 'on', '1.0' and '' single-quoted, multi-line text quoted too.
  return stringifyYaml(value, { version: '1.1', customTags: pyyamlBooleans, indentSeq: false, sortMapEntries: sortKeys, lineWidth: 0, nullStr: 'null', singleQuote: true, blockQuote: false });
}

/**
 * Close the gaps between nunjucks and the Jinja dbt projects are written in
 * (reference section 13.2): tags (do, break, continue), `return()`, Python
 * operators, namespace(), and Jinja's and dbt's extra filters and tests.
 */
export function installJinjaExtensions(env: nunjucks.Environment): void {
  installMacroReturn();
  installMacroBinding();
  installFrameSet();
  installCallSpreading();
  installPythonTruth();
  installNestedBraces();
  installTestArguments();
  installForLoops();
  installSetBlock();
  installBlockParsers();
  // Before installParseErrors: its unterminated-string check wraps the string reader.
  installPythonStringLiterals();
  installParseErrors();
  installPythonCollectionMethods();
  installPythonOperators();
  installPythonOutput();
  installCallableNamespaces();
  installDoTag(env);
  installLoopControls(env);
  installWithBlock(env);
  installJinjaTests(env);
  for (const filters of [COLLECTION_FILTERS, GROUPING_FILTERS, SORTING_FILTERS, NUMBER_FILTERS, TEXT_FILTERS]) {
    for (const [name, filter] of Object.entries(filters)) env.addFilter(name, filter as (...args: unknown[]) => unknown);
  }
  env.addFilter('tojson', tojsonFilter);
  env.addFilter('format', (format: unknown, ...args: unknown[]) => percentFormat(String(format), args.length === 1 && typeof args[0] === 'object' && !Array.isArray(args[0]) ? args[0] : args));
  // Python's str(): `none | string` is 'None' (nunjucks' own filter fails on it), an undefined value ''.
  env.addFilter('string', (value: unknown) => (typeof value === 'string' || isSafeString(value) ? value : String(jinjaOutputText(value))));
  env.addFilter('as_bool', asBool);
  env.addFilter('as_number', asNumber);
  env.addFilter('as_text', asText);
  env.addFilter('as_native', asNative);
  for (const [name, value] of Object.entries(GLOBALS)) env.addGlobal(name, value);
}

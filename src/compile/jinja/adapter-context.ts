import { engine } from '../../engine/current-engine.js';
import { quoteIdentifier } from '../../engine/quote-identifier.js';
import { relationColumns, relationKind } from '../../engine/relation-kind.js';
import { splitKeywordArgs } from '../keyword-args.js';
import { Relation } from '../relation.js';
import type { RenderState } from '../render-state.js';

/** A column as adapter.get_columns_in_relation returns it. */
export interface AdapterColumn {
  readonly name: string;
  readonly column: string;
  readonly data_type: string;
  readonly dtype: string;
  readonly quoted: string;
}

/**
 * How a render finds macros: an unqualified name (as the node sees it), and
 * adapter.dispatch's search through packages (macro-namespaces.ts).
 */
export type MacroLookup = ((name: string) => unknown) & {
  readonly dispatch?: (name: string, namespace: string | undefined, prefixes: readonly string[]) => unknown;
};

interface Located {
  readonly schema: string;
  readonly identifier: string;
}

const unquote = (part: string): string => part.replace(/^"|"$/g, '').replace(/""/g, '"');

/** Where a relation (a Relation, or its rendered text `"schema"."name"` / `"name"`) lives. */
function locate(relation: unknown): Located {
  if (relation instanceof Relation) return { schema: relation.schema, identifier: relation.identifier };
  const text = String(relation);
  const qualified = /^("(?:[^"]|"")*"|[^".]+)\.("(?:[^"]|"")*"|[^".]+)$/.exec(text);
  return qualified ? { schema: unquote(qualified[1]!), identifier: unquote(qualified[2]!) } : { schema: 'main', identifier: unquote(text) };
}

/**
 * dbt's `adapter` object (the parts projects use), `load_relation` and
 * `api.Relation.create`, answered from the SQLite warehouse. Without a
 * warehouse (the capture pass) relations are absent and have no columns.
 */
export function adapterContext(state: RenderState, lookupGlobal: MacroLookup): Record<string, unknown> {
  const attached = (schema: string): boolean => Boolean(state.db?.attachedSchemas().some((s) => s.toLowerCase() === schema.toLowerCase()));
  const find = (at: Located): Relation | null => {
    if (!state.db || !attached(at.schema)) return null;
    const kind = relationKind(state.db, at.identifier, at.schema);
    return kind ? new Relation(at.identifier, kind, undefined, at.schema) : null;
  };
  // adapter.get_relation(database, schema, identifier), positionally or by keyword.
  const getRelation = (...args: unknown[]): Relation | null => {
    const { positional, keywords } = splitKeywordArgs(args);
    const identifier = String(keywords.identifier ?? positional[2] ?? positional[0]);
    const schema = keywords.schema ?? positional[1];
    return find({ schema: schema === undefined || schema === null || schema === '' ? state.target.schema : String(schema), identifier });
  };
  const columns = (relation: unknown): AdapterColumn[] => {
    if (!state.db || relation === null || relation === undefined) return [];
    const at = locate(relation);
    if (!attached(at.schema)) return [];
    return relationColumns(state.db, at.identifier, { schema: at.schema }).map((c) => ({ name: c.name, column: c.name, data_type: c.type, dtype: c.type, quoted: quoteIdentifier(c.name) }));
  };
  const adapter = {
    type: () => engine.name,
    get_relation: getRelation,
    get_columns_in_relation: columns,
    get_missing_columns: (from: unknown, to: unknown) => {
      const have = new Set(columns(to).map((c) => c.name));
      return columns(from).filter((c) => !have.has(c.name));
    },
    quote: (name: unknown) => quoteIdentifier(String(name)),
    already_exists: (schema: unknown, name: unknown) => find({ schema: schema === undefined || schema === null || schema === '' ? state.target.schema : String(schema), identifier: String(name) }) !== null,
    // adapter.dispatch(macro_name, macro_namespace): `<engine>__name`, then `default__name`, in each package searched.
    dispatch: (...args: unknown[]) => {
      const { positional, keywords } = splitKeywordArgs(args);
      const name = String(positional[0] ?? keywords.macro_name);
      const namespace = positional[1] ?? keywords.macro_namespace;
      const prefixes = [engine.name, 'default'];
      if (lookupGlobal.dispatch) return lookupGlobal.dispatch(name, namespace === undefined || namespace === null ? undefined : String(namespace), prefixes);
      for (const candidate of prefixes.map((p) => `${p}__${name}`)) {
        const found = lookupGlobal(candidate);
        if (typeof found === 'function') return found;
      }
      throw new Error(`In dispatch: No macro named '${name}' found within namespace: 'None'\n    Searched for: ${prefixes.map((p) => `'${p}__${name}'`).join(', ')}`);
    },
  };
  return {
    // Parsing (no warehouse, execute false) lets any adapter method through as a call that renders nothing, as
    // dbt's parse does: the project loads, and an unknown method fails its model when it really runs.
    adapter: state.execute || state.db ? adapter : parseTimeAdapter(adapter),
    load_relation: (relation: unknown) => find(locate(relation)),
    api: {
      Relation: {
        create: (...args: unknown[]) => {
          const { positional, keywords } = splitKeywordArgs(args);
          const schema = keywords.schema ?? positional[1];
          return new Relation(String(keywords.identifier ?? positional[2]), (keywords.type as 'table' | 'view' | undefined) ?? null, undefined,
            schema === undefined || schema === null || schema === '' ? state.target.schema : String(schema));
        },
      },
    },
  };
}

const PARSE_PLACEHOLDER = (): string => '';

/** The adapter of the capture pass: its own methods, and a placeholder call for any other plain name. */
function parseTimeAdapter<T extends object>(adapter: T): T {
  return new Proxy(adapter, {
    get: (target, key) => (typeof key === 'string' && !(key in target) && /^[A-Za-z][A-Za-z0-9_]*$/.test(key) ? PARSE_PLACEHOLDER : Reflect.get(target, key)),
  });
}

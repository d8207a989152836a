import { engine } from '../../engine/current-engine.js';
import { quoteIdentifier } from '../../engine/quote-identifier.js';
import { relationColumns, relationKind } from '../../engine/relation-kind.js';
import { contextFunctions } from '../context-functions.js';
import { splitKeywordArgs } from '../keyword-args.js';
import { Relation, type RelationType } from '../relation.js';
import type { RenderState } from '../render-state.js';
import { behaviorFlags } from './adapter-behavior.js';
import { AdapterColumn, adapterColumnOf, columnApi } from './adapter-column.js';
import { moreExceptions } from './adapter-exceptions.js';
import { dropRelation, dropSchema, listSchemas, locate, relationsInSchema, renameRelation, schemaExists, type Located } from './adapter-relations.js';
import { ensureSchema } from '../../engine/target-schemas.js';
import { refuseReservedRelation, renderedName } from '../../engine/refuse-reserved-writes.js';
import { isProjectError } from '../../errors/project-error.js';

export { AdapterColumn };

/**
 * How a render finds macros: an unqualified name (as the node sees it), and
 * adapter.dispatch's search through packages (macro-namespaces.ts).
 */
export type MacroLookup = ((name: string) => unknown) & {
  readonly dispatch?: (name: string, namespace: string | undefined, prefixes: readonly string[]) => unknown;
};

/** The project's `flags:` when the render state carries them (dbt's behaviour flags). */

const RELATION_TYPES = new Set(['table', 'view', 'ephemeral']);
const blank = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * dbt's `adapter` object (the parts projects and packages use),
 * `load_relation`, `api.Relation` and `api.Column`, answered from the
 * SQLite warehouse as dbt-sqlite answers them. Without a warehouse (the
 * capture pass) relations are absent, have no columns, and the methods
 * that change the warehouse do nothing.
 */
export function adapterContext(state: RenderState, lookupGlobal: MacroLookup): Record<string, unknown> {
  const schemaOr = (schema: unknown): string => (blank(schema) ? state.target.schema : String(schema));
  // The target's schema is there even where the connection lists it as `main` only (PostgreSQL's target schema).
  const known = (schema: string): boolean => schema.toLowerCase() === state.target.schema.toLowerCase() || schemaExists(state.db, schema);
  const find = (at: Located): Relation | null => {
    if (!state.db || !known(at.schema)) return null;
    const kind = relationKind(state.db, at.identifier, at.schema);
    return kind ? new Relation(at.identifier, kind, undefined, at.schema) : null;
  };
  // adapter.get_relation(database, schema, identifier), positionally or by keyword.
  const getRelation = (...args: unknown[]): Relation | null => {
    const { positional, keywords } = splitKeywordArgs(args);
    const identifier = String(keywords.identifier ?? positional[2] ?? positional[0]);
    return find({ schema: schemaOr(keywords.schema ?? positional[1]), identifier });
  };
  const columns = (relation: unknown): AdapterColumn[] => {
    if (!state.db || relation === null || relation === undefined) return [];
    const at = locate(relation, state.target.schema);
    if (!known(at.schema)) return [];
    const column = adapterColumnOf(engine.name);
    return relationColumns(state.db, at.identifier, { schema: at.schema }).map((c) => column(c.name, c.type));
  };
  // Methods that change the warehouse run only while executing, as dbt's do (parsing has no connection).
  const whenExecuting = (fn: () => void): string => {
    if (!state.execute || !state.db) return '';
    try {
      fn();
    } catch (err) {
      // Kept on the state, a refusal (E230) is the render's message, not a JavaScript error.
      if (isProjectError(err) && !state.failure) state.failure = err;
      throw err;
    }
    return '';
  };
  const adapter = {
    type: () => engine.name,
    behavior: behaviorFlags(state.projectFlags, state.execute),
    get_relation: getRelation,
    get_columns_in_relation: columns,
    get_missing_columns: (from: unknown, to: unknown) => {
      const have = new Set(columns(to).map((c) => c.name));
      return columns(from).filter((c) => !have.has(c.name));
    },
    // SQLite columns take any value: there is nothing to widen (dbt-sqlite does nothing either).
    expand_target_column_types: () => '',
    list_relations_without_caching: (schemaRelation: unknown) => {
      const schema = schemaOf(schemaRelation, state.target.schema);
      return relationsInSchema(state.db, schema, engine.name, known(schema));
    },
    list_schemas: () => listSchemas(state.db),
    check_schema_exists: (...args: unknown[]) => {
      const { positional, keywords } = splitKeywordArgs(args);
      return known(String(keywords.schema ?? positional[1]));
    },
    drop_relation: (relation: unknown) => whenExecuting(() => {
      const at = locate(relation, state.target.schema);
      refuseReservedRelation(at.identifier, 'drop', `adapter.drop_relation in ${renderedName(state.modelName)}`);
      dropRelation(state.db, at, known(at.schema), engine.name);
    }),
    // dbt's create_schema / drop_schema (a relation: its schema). create_schema attaches a SQLite schema's file as a
    // node's custom schema would be; drop_schema: adapter-relations.ts (the ledger is never dropped).
    create_schema: (relation: unknown) => whenExecuting(() => {
      const schema = schemaOf(relation, state.target.schema);
      // PostgreSQL's: create schema if not exists (the target's own too: a drop_schema may have dropped it).
      if (engine.name === 'postgres') state.db!.exec(`create schema if not exists ${quoteIdentifier(schema)}`);
      else if (!known(schema)) ensureSchema(state.db!, state.target, schema);
    }),
    drop_schema: (relation: unknown) => whenExecuting(() => {
      const schema = schemaOf(relation, state.target.schema);
      dropSchema(state.db, schema, known(schema), engine.name);
    }),
    rename_relation: (from: unknown, to: unknown) => whenExecuting(() => {
      const [source, target] = [locate(from, state.target.schema), locate(to, state.target.schema)];
      refuseReservedRelation(source.identifier, 'rename', `adapter.rename_relation in ${renderedName(state.modelName)}`);
      refuseReservedRelation(target.identifier, 'rename a relation to', `adapter.rename_relation in ${renderedName(state.modelName)}`);
      renameRelation(state.db, source, target, engine.name);
    }),
    quote: (name: unknown) => quoteIdentifier(String(name)),
    // dbt-sqlite's quote policy quotes database, schema and identifier; any other key leaves the name as it is.
    quote_as_configured: (identifier: unknown, quoteKey: unknown) =>
      ['database', 'schema', 'identifier'].includes(String(quoteKey)) ? quoteIdentifier(String(identifier)) : String(identifier),
    already_exists: (schema: unknown, name: unknown) => find({ schema: schemaOr(schema), identifier: String(name) }) !== null,
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
    load_relation: (relation: unknown) => find(locate(relation, state.target.schema)),
    api: {
      Relation: { create: (...args: unknown[]) => createRelation(args, state.target.schema) },
      Column: columnApi(),
    },
    // context-functions' exceptions (raise_compiler_error, warn) and the rest of dbt's namespace.
    exceptions: { ...(contextFunctions(state).exceptions as Record<string, unknown>), ...moreExceptions(state) },
  };
}

/** The schema a relation (or a schema-only relation, `api.Relation.create(schema='x')`) names. */
function schemaOf(relation: unknown, fallback: string): string {
  if (relation instanceof Relation) return relation.schema;
  if (blank(relation)) return fallback;
  return locate(relation, fallback).schema;
}

/** api.Relation.create(database, schema, identifier, type): a schema-only relation when there is no identifier. */
function createRelation(args: readonly unknown[], defaultSchema: string): Relation {
  const { positional, keywords } = splitKeywordArgs(args);
  const schema = keywords.schema ?? positional[1];
  const identifier = keywords.identifier ?? positional[2];
  const type = String(keywords.type ?? '');
  return new Relation(blank(identifier) ? '' : String(identifier), RELATION_TYPES.has(type) ? (type as RelationType) : null, undefined, blank(schema) ? defaultSchema : String(schema));
}

const PARSE_PLACEHOLDER = (): string => '';

/** The adapter of the capture pass: its own methods, and a placeholder call for any other plain name. */
function parseTimeAdapter<T extends object>(adapter: T): T {
  return new Proxy(adapter, {
    get: (target, key) => (typeof key === 'string' && !(key in target) && /^[A-Za-z][A-Za-z0-9_]*$/.test(key) ? PARSE_PLACEHOLDER : Reflect.get(target, key)),
  });
}

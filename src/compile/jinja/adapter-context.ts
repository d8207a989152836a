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

const identifierOf = (relation: unknown): string =>
  relation instanceof Relation ? relation.identifier : String(relation).replace(/^"|"$/g, '').replace(/""/g, '"');

/**
 * dbt's `adapter` object (the parts projects use), `load_relation` and
 * `api.Relation.create`, answered from the SQLite warehouse. Without a
 * warehouse (the capture pass) relations are absent and have no columns.
 */
export function adapterContext(state: RenderState, lookupGlobal: (name: string) => unknown): Record<string, unknown> {
  const getRelation = (...args: unknown[]): Relation | null => {
    const { positional, keywords } = splitKeywordArgs(args);
    const identifier = String(keywords.identifier ?? positional[2] ?? positional[0]);
    if (!state.db) return null;
    const kind = relationKind(state.db, identifier);
    return kind ? new Relation(identifier, kind) : null;
  };
  const columns = (relation: unknown): AdapterColumn[] => {
    if (!state.db || relation === null || relation === undefined) return [];
    return relationColumns(state.db, identifierOf(relation)).map((c) => ({ name: c.name, column: c.name, data_type: c.type, dtype: c.type, quoted: quoteIdentifier(c.name) }));
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
    already_exists: (_schema: unknown, name: unknown) => Boolean(state.db && relationKind(state.db, String(name))),
    dispatch: (...args: unknown[]) => {
      const { positional, keywords } = splitKeywordArgs(args);
      const name = String(positional[0] ?? keywords.macro_name);
      for (const candidate of [`${engine.name}__${name}`, `default__${name}`, name]) {
        const found = lookupGlobal(candidate);
        if (typeof found === 'function') return found;
      }
      throw new Error(`In dispatch: No macro named '${name}' found (looked for ${engine.name}__${name} and default__${name})`);
    },
  };
  return {
    adapter,
    load_relation: (relation: unknown) => getRelation(identifierOf(relation)),
    api: {
      Relation: {
        create: (...args: unknown[]) => {
          const { positional, keywords } = splitKeywordArgs(args);
          return new Relation(String(keywords.identifier ?? positional[2]), (keywords.type as 'table' | 'view' | undefined) ?? null);
        },
      },
    },
  };
}

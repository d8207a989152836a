import type { EphemeralCte } from './inline-ephemerals.js';
import type { Manifest, ModelNode } from './manifest.js';
import { Relation } from './relation.js';
import { modelRenderState, type RenderModelOptions } from './render-model.js';

/** What a project strategy macro receives, before it becomes dbt's arg dict. */
export interface StrategyMacroArgs {
  readonly alias: string;
  /** The temp table's name and its qualified, quoted form. */
  readonly newRowsName: string;
  readonly newRows: string;
  readonly uniqueKey: unknown;
  readonly destColumns: readonly { readonly name: string; readonly type: string }[];
  readonly predicates: readonly string[];
}

/**
 * Call `get_incremental_<name>_sql(arg_dict)` as dbt does: the dict holds
 * target_relation, temp_relation, unique_key, dest_columns (name, quoted,
 * data_type) and incremental_predicates; the macro's rendered text is the
 * SQL the strategy runs.
 */
export function renderStrategyMacro(manifest: Manifest, node: ModelNode, macro: string, args: StrategyMacroArgs, options: RenderModelOptions): string {
  const state = modelRenderState(manifest, node, { ...options, incremental: true }, options.existing ?? null, new Map<string, EphemeralCte>());
  const dict = {
    target_relation: new Relation(args.alias, 'table', undefined, node.schema),
    temp_relation: new Relation(args.newRowsName, 'table', args.newRows),
    unique_key: args.uniqueKey ?? null,
    dest_columns: args.destColumns.map((c) => ({ name: c.name, column: c.name, quoted: `"${c.name.replace(/"/g, '""')}"`, data_type: c.type, dtype: c.type })),
    incremental_predicates: args.predicates.length > 0 ? [...args.predicates] : null,
  };
  return manifest.jinja.callMacro(macro, [dict], state, node.file.path);
}

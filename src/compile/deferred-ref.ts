import type { Warehouse } from '../engine/open-warehouse.js';
import type { DeferredRelation } from '../invocation/deferral.js';
import type { RunContext } from '../invocation/run-context.js';
import { ProjectError } from '../errors/project-error.js';

const selectedSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function isSelected(run: RunContext, uniqueId: string): boolean {
  const list = run.selectedResources;
  if (list === undefined) return false;
  let set = selectedSets.get(list);
  if (!set) {
    set = new Set(list);
    selectedSets.set(list, set);
  }
  return set.has(uniqueId);
}

/**
 * dbt's RuntimeRefResolver.create_relation under --defer: a ref() to a node
 * the state manifest built (a model, seed or snapshot, ephemeral neither
 * there nor here: an ephemeral is always inlined) reads the state's relation
 * when --favor-state is given and the node is not selected, or when the
 * target has no relation of that name, selected or not (as in dbt: a
 * selected node is built before what reads it, so it exists by then).
 * Sources and `this` are never deferred. Without a warehouse (nothing to
 * look in) the relation counts as absent.
 */
export function deferredRelation(run: RunContext | undefined, db: Warehouse | undefined, target: { readonly uniqueId: string; readonly alias: string; readonly schema: string }): DeferredRelation | undefined {
  const defer = run?.defer;
  const state = defer?.relations[target.uniqueId];
  if (!run || !defer || !state) return undefined;
  if (defer.favorState && !isSelected(run, target.uniqueId)) return state;
  const exists = db !== undefined && db.relationKind(target.alias, target.schema) !== null;
  return exists ? undefined : state;
}

/**
 * SQLite keeps a view inside its own file: a view cannot select from another
 * attached file ("view ... cannot reference objects in database ..."), so a
 * view built by run or build that would read a deferred relation in another
 * schema's file is refused before its statement runs (E213). compile and show
 * only render, so they may.
 */
export function refuseDeferredView(run: RunContext | undefined, sqlite: boolean, reader: { readonly name: string; readonly schema: string; readonly materialized: string }, refName: string, deferred: DeferredRelation): void {
  if (!sqlite || reader.materialized !== 'view' || deferred.schema === reader.schema) return;
  if (run?.command === 'compile' || run?.command === 'show') return;
  throw new ProjectError(`view '${reader.name}' cannot read ref('${refName}') deferred to the state's relation "${deferred.schema}"."${deferred.alias}": a SQLite view cannot select from another database file (schema ${reader.schema} is not ${deferred.schema})`, {
    hint: `select ${refName} too (it is then built in this target), or materialize ${reader.name} as a table for this run; on PostgreSQL the view reads the state's schema directly`,
  });
}

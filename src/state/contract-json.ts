import { createHash } from 'node:crypto';
import type { ModelNode } from '../compile/manifest.js';
import { contractConfig } from '../config/contract-config.js';
import type { ConstraintDefinition } from '../project/constraint-definition.js';

/** A constraint as dbt's manifest writes it (ColumnLevelConstraint / ModelLevelConstraint). */
export function constraintJson(c: ConstraintDefinition, level: 'column' | 'model'): Record<string, unknown> {
  return {
    type: c.type,
    name: c.name ?? null,
    expression: c.expression ?? null,
    warn_unenforced: c.warnUnenforced,
    warn_unsupported: c.warnUnsupported,
    to: c.to ?? null,
    to_columns: c.toColumns,
    ...(level === 'model' ? { columns: c.columns } : {}),
  };
}

/**
 * A model's `contract` (enforced, alias_types and, when enforced, a checksum)
 * and model-level `constraints`, as dbt's manifest has them. The checksum
 * follows dbt's build_contract_checksum: the columns sorted by name, each
 * with its data_type and constraints, then, for a table or incremental model,
 * the materialization and the model's constraints (hashed as mini-dbt writes
 * them, so it compares with mini-dbt's manifests, not dbt's).
 */
export function contractJson(node: ModelNode): { contract: Record<string, unknown>; constraints: Record<string, unknown>[] } {
  const contract = contractConfig(node.config);
  const columns = [...(node.properties?.columns ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const constraints = (node.properties?.constraints ?? []).map((c) => constraintJson(c, 'model'));
  let checksum: string | null = null;
  if (contract.enforced) {
    let state = '';
    for (const c of columns) state += `|${c.name}${c.dataType ?? 'None'}${JSON.stringify((c.constraints ?? []).map((k) => constraintJson(k, 'column')))}`;
    const materialized = node.settings.materialized;
    if (materialized === 'table' || materialized === 'incremental') state += `${materialized}${JSON.stringify(constraints)}`;
    checksum = createHash('sha256').update(state, 'utf8').digest('hex');
  }
  return { contract: { enforced: contract.enforced, alias_types: contract.aliasTypes, checksum }, constraints };
}

/**
 * dbt's same_contract, on two manifests' model nodes: no contract then and
 * now is the same; a contract enforced now and not then, or then and not
 * now, is a change; both enforced are the same when their checksums are.
 */
export function sameContract(current: Record<string, unknown>, previous: Record<string, unknown>): boolean {
  const now = current.contract as { enforced?: unknown; checksum?: unknown } | undefined;
  const before = previous.contract as { enforced?: unknown; checksum?: unknown } | undefined;
  const enforcedNow = now?.enforced === true;
  const enforcedBefore = before?.enforced === true;
  if (!enforcedNow && !enforcedBefore) return true;
  return enforcedNow && enforcedBefore && now?.checksum === before?.checksum;
}

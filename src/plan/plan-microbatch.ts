import type { ModelNode } from '../compile/manifest.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import { incrementalStatements, type IncrementalRunOptions } from '../materialize/incremental.js';
import { refusesRowsOutsideBatch, windowCheck } from '../materialize/incremental/microbatch.js';
import type { BatchWindow } from '../materialize/incremental/incremental-strategy.js';
import { tableStatements } from '../materialize/table.js';
import { withContractNewRows, type ContractSpec } from '../materialize/contract-table.js';
import type { PlannedBatch } from './microbatch-windows.js';
import type { SchemaChange } from '../materialize/schema-diff.js';
import type { BatchPlan, NodePlan } from './node-plan.js';

export interface PlanMicrobatchInput {
  readonly node: ModelNode;
  /** Whether the table exists and no full refresh applies (else batch 1 creates the table). */
  readonly incremental: boolean;
  readonly reason: string;
  /** Each batch with its rendered SQL (refs filtered to the batch). */
  readonly batches: readonly { readonly batch: PlannedBatch; readonly sql: string }[];
  /** How the batches were chosen. */
  readonly source: string;
  readonly gaps: readonly PlannedBatch[];
  /** Never-built batches before the lookback that this run leaves (fill_gaps off): noted once. */
  readonly missed?: readonly PlannedBatch[];
  readonly targetColumns: readonly string[];
  /** The target's and the first batch's columns (incremental runs): on_schema_change applies to batch 1. */
  readonly schema?: IncrementalRunOptions['schema'];
  /** The first batch's output columns, when known (what later batches write after batch 1 created the table). */
  readonly sourceColumns?: readonly string[];
  /** An enforced contract that passed its preflight: batch 1 of a first build creates the table with its DDL, the others stage their rows typed. */
  readonly contract?: { readonly spec: ContractSpec; readonly body: string };
}

const summarize = (labels: readonly string[]) => (labels.length <= 6 ? labels.join(', ') : `${labels.slice(0, 3).join(', ')} ... ${labels.slice(-2).join(', ')}`);

/**
 * Pure: a microbatch model's run as one publish per batch, oldest first.
 * Batch 1 creates the table when there is none (or under a full refresh)
 * and carries the pre-hooks and any schema change; the last batch carries
 * the post-hooks; every other batch deletes its window and inserts its rows.
 */
export function planMicrobatch(input: PlanMicrobatchInput): NodePlan {
  const { node } = input;
  const settings = node.settings;
  const eventTime = String(settings.eventTime);
  const last = input.batches.length - 1;
  // Pre-hooks run with the first batch, post-hooks with the last.
  const settingsFor = (i: number) => ({ ...settings, hooks: { pre: i === 0 ? settings.hooks.pre : [], post: i === last ? settings.hooks.post : [] } });
  let dest: readonly string[] | undefined = input.incremental ? undefined : (input.sourceColumns ?? []);
  let schemaChange: SchemaChange | undefined;
  const batches: BatchPlan[] = input.batches.map(({ batch, sql }, i) => {
    const window: BatchWindow = { eventTime, label: batch.label, start: batch.startText, end: batch.endText };
    const common = { label: batch.label, start: batch.startText, end: batch.endText, reason: batch.reason, sql };
    if (i === 0 && !input.incremental) {
      const statements = tableStatements({ alias: node.alias, schema: node.schema, sql, settings: settingsFor(i), ...(input.contract ? { contract: input.contract } : {}), checks: (staged) => [windowCheck(node.name, staged, window, refusesRowsOutsideBatch(settings))] });
      return { ...common, mode: 'full', statements };
    }
    const planned = incrementalStatements({
      model: node.name,
      alias: node.alias,
      modelPath: node.file.path,
      targetSchema: node.schema,
      sql,
      settings: settingsFor(i),
      targetColumns: input.targetColumns,
      window,
      schema: dest === undefined ? input.schema : undefined,
      destColumns: dest,
    });
    if (dest === undefined) {
      dest = planned.destColumns;
      schemaChange = planned.schemaChange;
    }
    return { ...common, mode: 'incremental', statements: input.contract ? withContractNewRows(planned.statements, node, sql, input.contract.spec) : planned.statements };
  });
  const gapLabels = input.gaps.map((g) => g.label);
  const missed = input.missed ?? [];
  const notes = [
    ...(gapLabels.length > 0
      ? [`filling ${gapLabels.length} batch${gapLabels.length === 1 ? '' : 'es'} the run ledger never recorded as built (${summarize(gapLabels)}); dbt would only rerun the lookback and leave ${gapLabels.length === 1 ? 'this hole' : 'these holes'} (fill_gaps: true)`]
      : []),
    ...(missed.length > 0
      ? [`${missed.length} batch${missed.length === 1 ? '' : 'es'} before the lookback ${missed.length === 1 ? 'was' : 'were'} never built (${summarize(missed.map((b) => b.label))}) and this run leaves ${missed.length === 1 ? 'it' : 'them'}, as dbt does; set fill_gaps: true to fill ${missed.length === 1 ? 'it' : 'them'}, or run --event-time-start ${missed[0]!.startText} --event-time-end ${missed.at(-1)!.endText}`]
      : []),
    ...(input.batches.length === 0 ? ['no batches to run in this window'] : []),
  ];
  return {
    uniqueId: node.uniqueId,
    name: node.name,
    relation: qualifiedName(node.schema, node.alias),
    materialization: 'incremental',
    strategy: 'microbatch',
    mode: input.incremental ? 'incremental' : 'full',
    reason: `${input.reason}; batches: ${input.source}`,
    sql: input.batches[0]?.sql ?? '',
    statements: [],
    partitionColumn: eventTime,
    batches,
    ...(notes.length > 0 ? { notes } : {}),
    ...(schemaChange ? { schemaChange } : {}),
  };
}

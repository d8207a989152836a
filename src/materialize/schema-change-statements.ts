import { dialect } from '../engine/current-engine.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import type { ModelSettings } from '../config/model-settings.js';
import type { SchemaChange } from './schema-diff.js';
import type { PlannedStatement } from './planned-statement.js';
import { diffSchemas, isEmptyDiff, listColumns, type ColumnSpec, type SchemaDiff } from './schema-diff.js';
import { indexStatements } from './model-indexes.js';
import { stagedTableName } from './staging-names.js';

export interface SchemaChangeInput {
  readonly model: string;
  /** The model's file, for dbt's `Compilation Error in model <name> (<path>)` heading. */
  readonly modelPath?: string;
  readonly alias: string;
  /** The schema the table lives in (default main). */
  readonly targetSchema?: string;
  /** The quoted, qualified temp table holding the new rows. */
  readonly newRows: string;
  /** on_schema_change: ignore (default), fail, append_new_columns, sync_all_columns. */
  readonly mode: string;
  readonly target: readonly ColumnSpec[];
  readonly source: readonly ColumnSpec[];
  /** The target's indexes (an index on a dropped column is dropped first). */
  readonly targetIndexes: readonly { readonly name: string; readonly columns: readonly string[] }[];
  readonly settings: ModelSettings;
}

export interface SchemaChangeResult {
  /** ALTER TABLE statements, or the rebuild, run after staging and before the strategy. */
  readonly statements: PlannedStatement[];
  /** The columns the strategy writes (unquoted). */
  readonly destColumns: readonly string[];
  /** Undefined when the table and the model's output already agree. */
  readonly change?: SchemaChange;
}

const describe = (d: SchemaDiff): string[] => [
  ...(d.added.length > 0 ? [`only in the model's output: ${listColumns(d.added)}`] : []),
  ...(d.removed.length > 0 ? [`only in the table: ${listColumns(d.removed)}`] : []),
  ...(d.changed.length > 0 ? [`changed types: ${d.changed.map((c) => `${c.name} ${c.from} -> ${c.to}`).join(', ')}`] : []),
];

const addColumn = (table: string, c: ColumnSpec): PlannedStatement => ({
  kind: 'exec',
  role: 'schema-change',
  sql: dialect.addColumn(table, quoteIdentifier(c.name), c.type),
});

const schemaOf = (input: SchemaChangeInput): string => input.targetSchema ?? 'main';
const tableOf = (input: SchemaChangeInput): string => qualifiedName(schemaOf(input), input.alias);

/**
 * A type change: rebuild the table with the new output's column types, copy
 * the rows it keeps, swap it in and index it, all inside the publish
 * transaction (views on the table keep working, see swapRelation).
 */
function rebuildStatements(input: SchemaChangeInput): PlannedStatement[] {
  const staged = stagedTableName(input.alias);
  const q = qualifiedName(schemaOf(input), staged);
  const kept = input.source.filter((c) => input.target.some((t) => t.name.toLowerCase() === c.name.toLowerCase())).map((c) => quoteIdentifier(c.name)).join(', ');
  return [
    { kind: 'exec', role: 'drop', sql: dialect.dropRelation('table', q, { ifExists: true }) },
    { kind: 'exec', role: 'schema-change', sql: dialect.createEmptyTableLike(q, input.newRows) },
    ...(kept ? [{ kind: 'exec', role: 'schema-change', sql: `insert into ${q} (${kept})\nselect ${kept} from ${tableOf(input)}` } as const] : []),
    { kind: 'swap', role: 'swap', staged, target: input.alias, schema: schemaOf(input), sql: `${dialect.dropRelation('table', tableOf(input))}; ${dialect.renameTable(q, quoteIdentifier(input.alias))}` },
    ...indexStatements(input.alias, input.settings, schemaOf(input)).map((sql) => ({ kind: 'exec', role: 'index', sql }) as const),
  ];
}

/** Columns dropped one by one (their indexes first); views naming the table are left alone. */
function dropStatements(input: SchemaChangeInput, removed: readonly ColumnSpec[]): PlannedStatement[] {
  const out: PlannedStatement[] = [];
  const dropped = new Set<string>();
  for (const c of removed) {
    for (const index of input.targetIndexes) {
      if (!dropped.has(index.name) && index.columns.some((col) => col.toLowerCase() === c.name.toLowerCase())) {
        dropped.add(index.name);
        out.push({ kind: 'exec', role: 'schema-change', sql: dialect.dropIndex(qualifiedName(schemaOf(input), index.name)) });
      }
    }
    out.push({ kind: 'exec', role: 'schema-change', legacyAlter: true, sql: dialect.dropColumn(tableOf(input), quoteIdentifier(c.name)) });
  }
  return out;
}

/** What on_schema_change does on an incremental run, decided before anything runs. */
export function schemaChangeStatements(input: SchemaChangeInput): SchemaChangeResult {
  const diff = diffSchemas(input.target, input.source);
  const targetNames = input.target.map((c) => c.name);
  const sourceNames = input.source.map((c) => c.name);
  if (isEmptyDiff(diff)) return { statements: [], destColumns: targetNames };
  const change = (action: string): SchemaChange => ({ mode: input.mode, ...diff, action });
  const details = describe(diff);
  const table = tableOf(input);
  switch (input.mode) {
    case 'fail': {
      // dbt raises it as a compilation error of the model: its heading, then what differs and the ways out.
      const message = [
        `Compilation Error in model ${input.model}${input.modelPath ? ` (${input.modelPath})` : ''}`,
        `  model '${input.model}': the model's output and table ${table} are out of sync (on_schema_change: fail)`,
        ...details.map((d) => `    ${d}`),
        `  set on_schema_change to append_new_columns or sync_all_columns, or rebuild with --full-refresh`,
      ].join('\n');
      return { statements: [{ kind: 'fail', message }], destColumns: targetNames, change: change(`stop the run: ${details.join('; ')}`) };
    }
    case 'append_new_columns': {
      const notes = [
        ...(diff.added.length > 0 ? [`add ${listColumns(diff.added)} (existing rows get NULL)`] : []),
        ...(diff.removed.length > 0 ? [`keep ${diff.removed.map((c) => c.name).join(', ')} (NULL in new rows)`] : []),
        ...(diff.changed.length > 0 ? [`leave the types of ${diff.changed.map((c) => c.name).join(', ')} as they are`] : []),
      ];
      return { statements: diff.added.map((c) => addColumn(table, c)), destColumns: sourceNames, change: change(notes.join('; ')) };
    }
    case 'sync_all_columns': {
      if (diff.changed.length > 0) {
        const action = `rebuild ${table} in the same transaction (${details.join('; ')}); rows are copied into the new column types`;
        return { statements: rebuildStatements(input), destColumns: sourceNames, change: change(action) };
      }
      const notes = [
        ...(diff.added.length > 0 ? [`add ${listColumns(diff.added)} (existing rows get NULL)`] : []),
        ...(diff.removed.length > 0 ? [`drop ${diff.removed.map((c) => c.name).join(', ')}`] : []),
      ];
      return {
        statements: [...diff.added.map((c) => addColumn(table, c)), ...dropStatements(input, diff.removed)],
        destColumns: sourceNames,
        change: change(notes.join('; ')),
      };
    }
    default: {
      // ignore (dbt's default): write the table's columns; new ones are not written.
      if (diff.removed.length > 0) {
        const message = [
          `model '${input.model}' no longer produces ${diff.removed.map((c) => c.name).join(', ')}, which table ${table} has (on_schema_change: ignore)`,
          `  the insert cannot fill ${diff.removed.length > 1 ? 'them' : 'it'}; set on_schema_change to append_new_columns (keep it, NULL in new rows) or sync_all_columns (drop it), or rebuild with --full-refresh`,
        ].join('\n');
        return { statements: [{ kind: 'fail', message }], destColumns: targetNames, change: change(`stop the run: ${details.join('; ')}`) };
      }
      const notes = [
        ...(diff.added.length > 0 ? [`${diff.added.map((c) => c.name).join(', ')} ${diff.added.length > 1 ? 'are' : 'is'} not written: the table has no such column`] : []),
        ...(diff.changed.length > 0 ? [`types differ (${diff.changed.map((c) => `${c.name} ${c.from} -> ${c.to}`).join(', ')}); values are stored with the table's types`] : []),
      ];
      return { statements: [], destColumns: targetNames, change: change(notes.join('; ')) };
    }
  }
}

import { dialect } from '../engine/current-engine.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import type { ColumnProperties } from '../project/project.js';
import type { PlannedStatement } from './planned-statement.js';

/** dbt-postgres's dollar-quote for comments (postgres_escape_comment). */
const MAGIC = '$dbt_comment_literal_block$';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PersistDocsInput {
  readonly schema: string;
  readonly alias: string;
  /** What the relation is once built: COMMENT ON TABLE or ON VIEW. */
  readonly kind: 'table' | 'view';
  /** The model's merged config (persist_docs: {relation, columns}). */
  readonly config: Readonly<Record<string, unknown>>;
  readonly description?: string;
  readonly columns: readonly ColumnProperties[];
  /** The relation's columns once built (the SELECT's), when known: yml columns it lacks are left out, as dbt-postgres does. */
  readonly outputColumns?: readonly string[];
}

/**
 * dbt's persist_docs on PostgreSQL (dbt-postgres's alter_relation_comment and alter_column_comment): after
 * the build, inside its transaction, `comment on table|view` with the model's description (when it has
 * one) and `comment on column` with each yml column's, each text dollar-quoted. A description holding the
 * quote itself fails the model (E219, dbt's words). SQLite has no comments: none, as dbt-sqlite ignores it.
 */
export function persistDocsStatements(input: PersistDocsInput): PlannedStatement[] {
  const setting = input.config.persist_docs;
  if (dialect.name !== 'postgres' || !isRecord(setting)) return [];
  const relation = qualifiedName(input.schema, input.alias);
  const texts: { target: string; text: string }[] = [];
  if (setting.relation === true && input.description) texts.push({ target: `${input.kind} ${relation}`, text: input.description });
  if (setting.columns === true) {
    const have = input.outputColumns?.map((c) => c.toLowerCase());
    for (const column of input.columns) {
      if (have && !have.includes(column.name.toLowerCase())) continue;
      texts.push({ target: `column ${relation}.${column.quote ? quoteIdentifier(column.name) : column.name}`, text: column.description ?? '' });
    }
  }
  const refused = texts.find((t) => t.text.includes(MAGIC));
  if (refused) return [{ kind: 'fail', message: `The string ${MAGIC} is not allowed in comments.` }];
  return texts.map((t): PlannedStatement => ({ kind: 'exec', role: 'comment', sql: `comment on ${t.target} is ${MAGIC}${t.text}${MAGIC}` }));
}

import type { SnapshotNode } from '../compile/manifest.js';
import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { findLine } from '../compile/find-line.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The columns a snapshot's config names (unique_key, updated_at, check_cols) must be in its query: else the node fails (exit 1), nothing written. */
export function checkSnapshotColumns(node: SnapshotNode, columns: readonly string[]): void {
  const s = node.settings;
  const have = new Set(columns.map((c) => c.toLowerCase()));
  const named: [string, string][] = [
    ...s.uniqueKey.map((k): [string, string] => ['unique_key', k]),
    ...(s.updatedAt ? [['updated_at', s.updatedAt] as [string, string]] : []),
    ...(Array.isArray(s.checkCols) ? s.checkCols.map((c): [string, string] => ['check_cols', c]) : []),
  ];
  for (const [key, column] of named) {
    // An expression (`id || '-' || region`) is the user's SQL: SQLite judges it.
    if (!IDENTIFIER.test(column) || have.has(column.toLowerCase())) continue;
    throw new ProjectError(`snapshot '${node.name}': ${key} names column '${column}', which its query does not return; its columns: ${columns.join(', ')}.${didYouMeanSuffix(column, columns)}`, {
      location: { file: node.definition.path, line: lineOf(node, column) },
      hint: 'nothing was written; name a column of the query',
      exitCode: 1,
    });
  }
}

/** The file line that names `column` in the snapshot's block (its config() call), else the block's own line. */
function lineOf(node: SnapshotNode, column: string): number {
  const def = node.definition;
  const at = findLine(def.rawSql, `'${column}'`) ?? findLine(def.rawSql, `"${column}"`);
  return at === undefined || !def.rawSql.includes('config(') ? def.line : def.bodyLineOffset + at;
}

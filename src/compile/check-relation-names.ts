import { ProjectError, type ErrorLocation } from '../errors/project-error.js';
import { foldAsciiCase, isReservedName, RESERVED_INFIX, RESERVED_PREFIX } from '../project/reserved-names.js';
import { findLine } from './find-line.js';
import type { ModelNode, SeedNode, SnapshotNode, SourceNode } from './manifest.js';

interface Relational {
  readonly what: string;
  readonly uniqueId: string;
  /** The schema it is written in (a source's, for the reserved-name check, is not needed). */
  readonly schema?: string;
  readonly relation: string;
  readonly path: string;
  readonly location: ErrorLocation;
}

function modelEntry(node: ModelNode): Relational {
  const aliased = node.alias !== node.name;
  const line = aliased ? findLine(node.file.rawSql, node.alias) : undefined;
  return { what: `model '${node.name}'`, uniqueId: node.uniqueId, schema: node.schema, relation: node.alias, path: node.file.path, location: { file: node.file.path, line } };
}

function seedEntry(node: SeedNode): Relational {
  const location = node.alias !== node.name && node.properties ? node.properties.location : { file: node.file.path };
  return { what: `seed '${node.name}'`, uniqueId: node.uniqueId, schema: node.schema, relation: node.alias, path: node.file.path, location };
}

function snapshotEntry(node: SnapshotNode): Relational {
  const line = node.alias !== node.name ? findLine(node.file.rawSql, node.alias) : undefined;
  return { what: `snapshot '${node.name}'`, uniqueId: node.uniqueId, schema: node.schema, relation: node.alias, path: node.file.path, location: { file: node.file.path, line } };
}

/**
 * Load-time checks on the relations the project's nodes name, before
 * anything runs:
 *
 * - no model, seed, snapshot or source may name a relation inside the tool's reserved
 *   namespace (the run ledger and the staging tables; reserved-names.ts);
 * - no two nodes may write the same relation, the same name in the same
 *   schema (an alias onto a seed or another model, or names equal ignoring
 *   case, as SQLite compares them): dbt's "two resources with the database
 *   representation" error. The same alias in two schemas is two relations,
 *   as in dbt. Ephemeral and disabled models write nothing and are left out.
 */
export function relationNameProblems(
  models: Iterable<ModelNode>, seeds: Iterable<SeedNode>, sources: Iterable<SourceNode>, snapshots: Iterable<SnapshotNode> = [],
): ProjectError[] {
  const problems: ProjectError[] = [];
  const modelList = [...models];
  const seedList = [...seeds].map(seedEntry);
  // A snapshot keeps a table too: one aliased onto a model's relation, or onto the ledger, would alter it.
  const snapshotList = [...snapshots].map(snapshotEntry);
  const writers = [...seedList, ...modelList.filter((m) => m.settings.materialized !== 'ephemeral').map(modelEntry), ...snapshotList];
  const named = [
    ...seedList,
    ...snapshotList,
    ...modelList.map(modelEntry),
    ...[...sources].map((s): Relational => ({
      what: `source '${s.name}'`, uniqueId: s.uniqueId, relation: s.alias, path: s.table.location.file, location: s.table.location,
    })),
  ];
  for (const entry of named) {
    if (!isReservedName(entry.relation)) continue;
    problems.push(new ProjectError(
      `${entry.what} names the relation '${entry.relation}', which is in mini-dbt's reserved namespace: names starting with '${RESERVED_PREFIX}' or containing '${RESERVED_INFIX}' (in any letter case) belong to the run ledger and the staging tables`,
      { location: entry.location, hint: entry.what.startsWith('source') ? 'give the source table another identifier' : 'rename it, or give it another alias' },
    ));
  }

  const byRelation = new Map<string, Relational>();
  for (const entry of writers) {
    if (isReservedName(entry.relation)) continue;
    const key = `${foldAsciiCase(entry.schema ?? '')}\0${foldAsciiCase(entry.relation)}`;
    const first = byRelation.get(key);
    if (!first) {
      byRelation.set(key, entry);
      continue;
    }
    const sameSpelling = first.relation === entry.relation;
    problems.push(new ProjectError(
      `found two resources with the database representation "${entry.schema ?? ''}"."${entry.relation}"${sameSpelling ? '' : ` ('${first.relation}' and '${entry.relation}' are one name to SQLite, which ignores letter case)`}: ${first.uniqueId} (${first.path}) and ${entry.uniqueId} (${entry.path}); mini-dbt cannot create two resources with identical database representations`,
      { location: entry.location, hint: 'change the configuration of one of them: another alias or schema (or rename it)' },
    ));
  }
  return problems;
}

import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import type { Target } from '../project/target.js';
import type { Connection } from './connection.js';

/** A schema name that is a plain file name in schema_directory. */
const SCHEMA_FILE_NAME = /^[A-Za-z0-9_$][A-Za-z0-9_$-]*$/;

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function attach(db: Connection, name: string, path: string, from: string): void {
  try {
    db.attachSchema(name, path);
  } catch (err) {
    throw new ProjectError(`cannot open schema '${name}' (${path}, from ${from}): ${errorText(err)}`, {
      hint: 'check that the path is a SQLite database file and its folder exists and is writable',
    });
  }
}

/**
 * Attach the target's schemas as a connection opens, as dbt-sqlite does:
 * every `schemas_and_paths` entry, and every `<schema>.db` file already in
 * `schema_directory`. A read-only connection skips files that do not exist
 * yet (what they would hold reads as absent).
 */
export function attachTargetSchemas(db: Connection, target: Target): void {
  // A server database's schemas are all there already.
  if (target.postgres) return;
  const taken = new Set([resolve(db.path), ...Object.values(target.schemaPaths).map((p) => resolve(p))]);
  for (const [name, path] of Object.entries(target.schemaPaths)) {
    if (db.readonly && !existsSync(path)) continue;
    if (!db.readonly) mkdirSync(dirname(path), { recursive: true });
    attach(db, name, path, 'schemas_and_paths');
  }
  const dir = target.schemaDirectory;
  if (dir === undefined || !existsSync(dir)) return;
  for (const entry of readdirSync(dir).sort()) {
    if (extname(entry) !== '.db') continue;
    const name = basename(entry, '.db');
    const path = join(dir, entry);
    // The main file or a schemas_and_paths file may sit in the folder too: a file is attached once.
    if (name === 'main' || name.toLowerCase() === 'temp' || Object.hasOwn(target.schemaPaths, name) || taken.has(resolve(path))) continue;
    attach(db, name, path, 'schema_directory');
  }
}

/** The target's own schema, there once a connection is open: `main`, and on PostgreSQL the target's schema by name. */
export function isTargetOwnSchema(target: Target, schema: string): boolean {
  return schema === 'main' || (target.postgres !== undefined && schema === target.schema);
}

/**
 * dbt's create_schema: make sure a schema a node is built in exists, its
 * file created in `schema_directory` when no `schemas_and_paths` entry
 * names it. A schema nothing can place is an error naming the fix.
 */
export function ensureSchema(db: Connection, target: Target, schema: string): void {
  if (target.postgres) {
    // PostgreSQL: CREATE SCHEMA IF NOT EXISTS (schemas are names, not files); the target's own exists already.
    if (!isTargetOwnSchema(target, schema)) attach(db, schema, '', 'the node\'s schema config');
    return;
  }
  if (schema === 'main' || db.attachedSchemas().some((s) => s.toLowerCase() === schema.toLowerCase())) return;
  const named = target.schemaPaths[schema];
  if (named !== undefined) {
    mkdirSync(dirname(named), { recursive: true });
    attach(db, schema, named, 'schemas_and_paths');
    return;
  }
  if (target.schemaDirectory === undefined) {
    throw new ProjectError(`schema '${schema}' has no database file: target '${target.name}' names none for it in schemas_and_paths and sets no schema_directory`, {
      hint: `add \`${schema}: <file>.db\` under schemas_and_paths, or set schema_directory in the profile so schemas are created on demand`,
    });
  }
  // The schema names a file in schema_directory: a name that could leave the folder (a model's config is other people's code) is refused.
  if (!SCHEMA_FILE_NAME.test(schema)) {
    throw new ProjectError(`schema '${schema}' cannot name a file in schema_directory: a schema created on demand is letters, digits, '_', '-' or '$', not starting with '.' or '-'`, {
      hint: `give it a file under schemas_and_paths, or change the schema config`,
    });
  }
  mkdirSync(target.schemaDirectory, { recursive: true });
  attach(db, schema, join(target.schemaDirectory, `${schema}.db`), 'schema_directory');
}

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Manifest } from '../compile/manifest.js';
import { ProjectError } from '../errors/project-error.js';
import { warnUser } from '../errors/user-warning.js';
import type { Deferral, DeferredRelation } from '../invocation/deferral.js';
import { schemaFile, sqliteWarehouseFiles, type SqliteWarehouseFiles } from '../state/warehouse-files.js';

/** dbt's --defer, --defer-state, --favor-state (and DBT_DEFER, DBT_DEFER_STATE, DBT_FAVOR_STATE on the command line). */
export interface DeferOptions {
  readonly defer?: boolean;
  /** The state folder for deferral only (dbt's --defer-state); else --state's. */
  readonly deferState?: string;
  readonly favorState?: boolean;
  readonly state?: string;
}

type NodeJson = { resource_type?: unknown; schema?: unknown; alias?: unknown; database?: unknown; config?: { materialized?: unknown } };

const REFABLE = new Set(['model', 'seed', 'snapshot']);

/**
 * The name of the schema of this connection a state's SQLite relation is
 * read under. The rule: a state relation in schema S is in the file the
 * state's manifest records for S (its metadata's sqlite_warehouse: main,
 * schemas_and_paths, schema_directory).
 * - This target has that file as a schema already (the same warehouse, or
 *   prod's schema file in dev's schemas_and_paths): read under that name.
 * - Else, S is not main, this target places no schema S (no schemas_and_paths
 *   entry, no schema_directory) and this invocation builds nothing in S: the
 *   file is attached as S itself (its views name S, so they keep working).
 * - Else it is attached as `state_<S>`: a file whose views name `main` (a
 *   state's main file with views) cannot be attached under another name,
 *   which attachDeferredSchemas reports (E212).
 * Attached files are only read: no node this invocation builds is in them.
 * A manifest that does not record its files (dbt-sqlite's own) is taken to
 * be in this warehouse: S is read as this target's S.
 */
function sqliteSchemaName(state: SqliteWarehouseFiles | undefined, current: SqliteWarehouseFiles, written: ReadonlySet<string>, schema: string, dir: string, attach: Record<string, string>): string {
  if (state === undefined) return schema;
  const file = schemaFile(state, schema);
  if (file === undefined) return schema;
  if (file === current.main) return 'main';
  const named = Object.entries(current.schemas_and_paths).find(([, path]) => path === file);
  if (named) return named[0];
  if (current.schema_directory !== null && file === join(current.schema_directory, `${schema}.db`)) return schema;
  if (!existsSync(file)) {
    // E212
    throw new ProjectError(`--defer: the state's schema '${schema}' is in ${file}, which does not exist`, {
      hint: `the manifest in ${dir} was written against that SQLite file; defer on the machine that has it, or copy it to that path`,
    });
  }
  const placed = schema === 'main' || written.has(schema) || Object.hasOwn(current.schemas_and_paths, schema) || current.schema_directory !== null;
  const name = placed ? `state_${schema}` : schema;
  attach[name] = file;
  return name;
}

/**
 * dbt's deferral (manifest.merge_from_artifact): every model, seed and
 * snapshot of the state's manifest.json that this project has too, and that
 * is ephemeral neither there nor here, gets the state's relation to fall
 * back on; compile/deferred-ref.ts decides, ref by ref, whether to read it.
 * Undefined without --defer (--favor-state alone changes nothing, as in dbt).
 * `written`: the schemas this invocation builds in (default: every schema of
 * the project's nodes, for a command that may write anywhere).
 */
export function deferralOf(options: DeferOptions, manifest: Manifest, written?: Iterable<string>): Deferral | undefined {
  if (!options.defer) return undefined;
  const dir = options.deferState ?? options.state;
  if (dir === undefined || dir.trim() === '') {
    // E210, in dbt's words.
    throw new ProjectError('Received a --defer argument, but no value was provided to --state', {
      hint: 'give --state <folder> (or --defer-state <folder>, DBT_DEFER_STATE): the target folder of the run to defer to, e.g. a copy of production\'s target/',
    });
  }
  // dbt's WarnStateTargetEqual: this command rewrites the folder it defers to.
  if (resolve(dir) === resolve(manifest.project.root, manifest.project.paths.target)) {
    warnUser(`The state and target directories are the same: '${dir}'. This could lead to missing changes due to overwritten state including non-idempotent retries.`, 'WarnStateTargetEqual');
  }
  const path = join(resolve(dir), 'manifest.json');
  // E211, in dbt's words.
  if (!existsSync(path)) throw new ProjectError(`Could not find manifest in --state path: "${dir}"`, { hint: 'point --state (or --defer-state) at the target folder of the run to defer to' });
  let state: { metadata?: { sqlite_warehouse?: SqliteWarehouseFiles }; nodes?: Record<string, NodeJson> };
  try {
    state = JSON.parse(readFileSync(path, 'utf8')) as typeof state;
  } catch (err) {
    throw new ProjectError(`--defer: could not read the state manifest ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const target = manifest.project.target;
  const current = sqliteWarehouseFiles(target, manifest.project.databasePath);
  const ours = new Map<string, { readonly ephemeral: boolean }>();
  for (const node of manifest.nodes.values()) if (node.resourceType !== 'source') ours.set(node.uniqueId, { ephemeral: node.resourceType === 'model' && node.settings.materialized === 'ephemeral' });
  for (const snapshot of manifest.snapshots?.values() ?? []) ours.set(snapshot.uniqueId, { ephemeral: false });
  const writes = new Set(written ?? [...manifest.nodes.values()].filter((n) => n.resourceType !== 'source').map((n) => n.schema));
  if (written === undefined) for (const snapshot of manifest.snapshots?.values() ?? []) writes.add(snapshot.schema);
  const relations: Record<string, DeferredRelation> = {};
  const attach: Record<string, string> = {};
  for (const [id, node] of Object.entries(state.nodes ?? {})) {
    const here = ours.get(id);
    if (!here || here.ephemeral || !REFABLE.has(String(node.resource_type)) || node.config?.materialized === 'ephemeral') continue;
    if (typeof node.schema !== 'string' || typeof node.alias !== 'string') continue;
    if (target.postgres && node.database !== undefined && node.database !== null && node.database !== target.postgres.dbname) {
      // E214
      throw new ProjectError(`--defer: ${id} was built in database '${String(node.database)}', and this target's is '${target.postgres.dbname}': PostgreSQL cannot read another database's relations`, {
        hint: 'defer to the artifacts of a target in the same database (another schema)',
      });
    }
    const schema = current === undefined ? node.schema : sqliteSchemaName(state.metadata?.sqlite_warehouse, current, writes, node.schema, dir, attach);
    relations[id] = { schema, alias: node.alias, stateSchema: node.schema };
  }
  return { favorState: options.favorState === true, relations, attach };
}

/** Attach the state's SQLite files deferred relations are read from (nothing on PostgreSQL). */
export function attachDeferredSchemas(db: { attachedSchemas(): string[]; run(sql: string, ...params: string[]): unknown }, deferral: Deferral | undefined): void {
  if (!deferral) return;
  const attached = new Set(db.attachedSchemas().map((s) => s.toLowerCase()));
  for (const [name, file] of Object.entries(deferral.attach)) {
    if (attached.has(name.toLowerCase())) continue;
    // A plain attach: the file's journal mode and contents are left as they are (only read).
    try {
      db.run(`attach database ? as "${name.replace(/"/g, '""')}"`, file);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!/cannot reference objects in database/.test(message)) throw err;
      // E212
      const schema = name.startsWith('state_') ? name.slice('state_'.length) : name;
      throw new ProjectError(`--defer: cannot read the state's SQLite file ${file} from this warehouse: it holds views that name its schema '${schema}', and SQLite can attach it only under another name here (${name}), where those views do not parse (${message})`, {
        hint: 'build the state in a named schema (a schema config with schemas_and_paths or schema_directory, dbt-sqlite\'s schemas) that this target does not place and this command does not build in, so its file attaches under its own name; or defer within one warehouse file',
      });
    }
  }
}

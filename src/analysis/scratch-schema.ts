import { randomBytes } from 'node:crypto';
import type { Manifest } from '../compile/manifest.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import { buildGraph } from '../graph/build-graph.js';
import { captureRemembered } from '../parse/capture-vars.js';
import type { Target } from '../project/target.js';
import type { ScratchWarehouse, SessionLike } from './scratch-warehouse.js';
import { hostname } from 'node:os';
import { currentRunOwner, isRunOwnerAlive, type RunOwner } from '../state/run-owner.js';

/** Every scratch schema's name starts so (then 10 random hex digits): a name no one gives a schema of their own. */
export const SCRATCH_SCHEMA_PREFIX = 'mini_dbt_scratch_';

/**
 * A scratch copy on a server database: a new schema of the same database
 * plays the target's schema, every schema the project's nodes are built in
 * gets a scratch schema of its own (`<scratch>_<custom>` as dbt names
 * custom schemas), and the live schemas' tables (the run ledger with them)
 * are copied in. The session returned is captured again with a target whose
 * schema is the scratch one, so every model, seed and snapshot it runs is
 * built there; sources are read where they are (a run never writes them).
 * dispose() drops every scratch schema, whatever happened (an interrupt
 * included: SIGINT and SIGTERM drop them and exit 130 / 143).
 */
export function scratchSchema<S extends SessionLike>(session: S, inSchema: (path: string, schema: string) => string): ScratchWarehouse<S> {
  const live = session.project;
  const db = openProjectWarehouse(live);
  const created: string[] = [];
  // Interrupted (Ctrl-C, a kill), the command drops its scratch schemas before it exits, at its next turn of the event loop.
  const onSignal = (signal: NodeJS.Signals): void => {
    try {
      dispose();
    } finally {
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  const dispose = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    dropSchemas(live, created.splice(0));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    dropOrphans(db);
    const existing = new Set(db.attachedSchemas());
    const name = freshName(existing);
    const target: Target = { ...live.target, schema: name };
    const project = { ...live, databasePath: inSchema(live.databasePath, name), target };
    const manifest = captureRemembered(project, { vars: session.manifest.vars, macroNames: session.manifest.macroNames, jinja: session.manifest.jinja });
    const copies = scratchSchemas(session.manifest, manifest, live.target.schema, name);
    copySchema(db, created, 'main', name);
    // Who made it: a later command drops it if this process is killed before it can (kill -9, a power cut).
    db.exec(`comment on schema ${quoteIdentifier(name)} is ${dialect.quoteLiteral(`${OWNER_COMMENT}${JSON.stringify(currentRunOwner())}`)}`);
    for (const [from, to] of copies) {
      if (to === name) continue;
      if (existing.has(from)) copySchema(db, created, from, to);
      else created.push(to);
    }
    const scratched = { ...session, project, manifest, ...('graph' in session ? { graph: buildGraph(manifest.graphNodes) } : {}) } as S;
    return { path: project.databasePath, session: scratched, copied: true, dispose };
  } catch (err) {
    dispose();
    throw err;
  } finally {
    db.close();
  }
}

interface BuiltNode {
  readonly uniqueId: string;
  readonly name: string;
  readonly resourceType: string;
  readonly schema: string;
}

/** A scratch name not taken by any schema of the database (nor as the start of one). */
function freshName(existing: ReadonlySet<string>): string {
  for (;;) {
    const name = `${SCRATCH_SCHEMA_PREFIX}${randomBytes(5).toString('hex')}`;
    if (![...existing].some((s) => s === name || s.startsWith(`${name}_`))) return name;
  }
}

/**
 * Live schema -> scratch schema, for every schema a node is built in (the
 * live manifest against the one captured with the scratch target). A node
 * whose schema does not follow the target's (a generate_schema_name that
 * ignores it) would be built in its live schema: refused (E196).
 */
function scratchSchemas(liveManifest: Manifest, scratchManifest: Manifest, liveSchema: string, scratch: string): Map<string, string> {
  const copies = new Map<string, string>([[liveSchema, scratch]]);
  const built = (m: Manifest): BuiltNode[] => [...m.nodes.values(), ...(m.snapshots?.values() ?? [])].filter((n) => n.resourceType !== 'source');
  const scratchById = new Map(built(scratchManifest).map((n) => [n.uniqueId, n.schema]));
  for (const node of built(liveManifest)) {
    const to = scratchById.get(node.uniqueId);
    if (to === undefined) continue;
    const from = node.schema === 'main' ? liveSchema : node.schema;
    const into = to === 'main' ? scratch : to;
    if (into === from || !(into === scratch || into.startsWith(`${scratch}_`))) {
      throw new ProjectError(`${node.resourceType} '${node.name}' is built in schema '${from}' whatever the target's schema is, so a run on a scratch copy would write the live one; nothing was copied`, {
        hint: 'a replay builds in a scratch schema of its own: generate_schema_name must derive node schemas from target.schema (dbt\'s default does)',
      });
    }
    copies.set(from, into);
  }
  return copies;
}

/** Copy a live schema into a new one (recorded for dispose first, so a failed copy is dropped too). */
function copySchema(db: Warehouse, created: string[], from: string, to: string): void {
  created.push(to);
  db.copyTo(to, from);
}

const OWNER_COMMENT = 'mini-dbt scratch copy, made by ';

/**
 * Drop the scratch schemas of commands that died without dropping them (a
 * kill -9 skips the signal handlers): those whose comment names a process
 * of this host that is gone. One made on another host, or with no comment,
 * is left alone: whether its command still runs cannot be told from here.
 */
function dropOrphans(db: Warehouse): void {
  const rows = db.prepare(`select nspname as name, obj_description(oid, 'pg_namespace') as owner from pg_namespace where starts_with(nspname, '${SCRATCH_SCHEMA_PREFIX}')`).all() as { name: string; owner: string | null }[];
  const mine = (owner: string | null): RunOwner | undefined => {
    if (owner === null || !owner.startsWith(OWNER_COMMENT)) return undefined;
    try {
      return JSON.parse(owner.slice(OWNER_COMMENT.length)) as RunOwner;
    } catch {
      return undefined;
    }
  };
  for (const row of rows) {
    const owner = mine(row.owner);
    if (owner === undefined || owner.host !== hostname() || owner.pid === process.pid || isRunOwnerAlive(owner)) continue;
    for (const schema of rows.map((r) => r.name).filter((n) => n === row.name || n.startsWith(`${row.name}_`))) {
      try {
        db.exec(`drop schema if exists ${quoteIdentifier(schema)} cascade`);
      } catch {
        // Not ours to drop (another user's): left, as before.
      }
    }
  }
}

/** Drop the scratch schemas and what is in them (and any a run created under the scratch name). */
function dropSchemas(live: SessionLike['project'], created: readonly string[]): void {
  if (created.length === 0) return;
  const db = openProjectWarehouse(live);
  try {
    const scratch = created[0]!;
    const all = new Set([...created, ...db.attachedSchemas().filter((s) => s.startsWith(`${scratch}_`))]);
    for (const schema of all) db.exec(`drop schema if exists ${quoteIdentifier(schema)} cascade`);
  } finally {
    db.close();
  }
}

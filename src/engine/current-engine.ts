import type { Engine } from './engine.js';
import type { Dialect } from './dialect.js';
import type { Target } from '../project/target.js';
import { sqliteEngine } from './sqlite/sqlite-engine.js';
import { postgresEngine } from './postgres/pg-engine.js';

/**
 * The one place that chooses the engine (and the only file outside
 * engine/<name>/ that imports one): SQLite unless the command's target is a
 * `type: postgres` profile output. The choice is made once a command knows
 * its target (useTargetEngine); until then, and for every SQLite target, it
 * is SQLite. `engine` and `dialect` are live bindings: importers see the choice.
 */
export let engine: Engine = sqliteEngine;

/** The chosen engine's SQL dialect. */
export let dialect: Dialect = engine.dialect;

/** Choose the engine a target runs on (called as a command loads its project). */
export function useTargetEngine(target: Pick<Target, 'type' | 'schema' | 'postgres'>): Engine {
  engine = target.type === 'postgres' && target.postgres ? postgresEngine(target.postgres, target.schema, { prewarm: takePrewarm() }) : sqliteEngine;
  dialect = engine.dialect;
  return engine;
}

let prewarm = false;

/**
 * A command that opens the warehouse says so before it loads the project
 * (run, build, seed, backfill...): a server engine chosen next starts
 * connecting at once, in the background. Used once: a later choice (a test
 * loading many projects in one process) does not leave idle connections.
 */
export function prewarmNextConnection(): void {
  prewarm = true;
}

function takePrewarm(): boolean {
  const asked = prewarm;
  prewarm = false;
  return asked;
}

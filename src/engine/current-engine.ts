import type { Engine } from './engine.js';
import { sqliteEngine } from './sqlite/sqlite-engine.js';

/**
 * The one place that chooses the engine (and the only file outside
 * engine/sqlite/ that imports it). SQLite is the only engine so far; a
 * second one is chosen here, by the project's settings.
 */
export const engine: Engine = sqliteEngine;

/** The chosen engine's SQL dialect. */
export const dialect = engine.dialect;

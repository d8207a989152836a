import { existsSync } from 'node:fs';
import { engine } from './current-engine.js';

/**
 * Whether a command that only reads can open the warehouse at `path`: a
 * file engine's warehouse exists once its file does; a server's database
 * (or an in-memory one) has no file, so it is there, and what it lacks is
 * found by the queries that follow (a table not loaded yet, ...). The one
 * place the toolkit asks "is there a warehouse yet?".
 */
export function warehouseExists(path: string): boolean {
  return engine.isInMemory(path) || existsSync(path);
}

/**
 * The relation names mini-dbt keeps for itself. SQLite has one namespace
 * per database file, shared by the user's tables and the tool's own, so the
 * tool's names live in a namespace no node may use:
 *
 * - the ledger tables (and their indexes) start with `_mini_dbt_`;
 * - the scratch tables a publish or an analysis derives from a node's alias
 *   (staging, new rows, rebuilds, previews, probes) contain `__mini_dbt_`.
 *
 * SQLite compares identifiers ignoring ASCII case, and so does this rule.
 * Every tool-owned name is built from these constants (ledger-tables.ts
 * checks its table names against the prefix at compile time), and the
 * loader refuses any model, seed or source whose relation falls inside.
 */
export const RESERVED_PREFIX = '_mini_dbt_';
export const RESERVED_INFIX = '__mini_dbt_';

/** What a scratch table holds; its name is `<alias>__mini_dbt_<role>`. */
export type ScratchRole = 'tmp' | 'new' | 'match' | 'rebuilt' | 'preview' | 'probe';

/** The scratch table of `alias` for one role (always inside the reserved namespace). */
export function scratchTableName(alias: string, role: ScratchRole): string {
  return `${alias}${RESERVED_INFIX}${role}`;
}

/** SQLite's identifier folding: ASCII letters only. */
export function foldAsciiCase(name: string): string {
  return name.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** Whether a relation name lies in the tool's namespace. */
export function isReservedName(name: string): boolean {
  const folded = foldAsciiCase(name);
  return folded.startsWith(RESERVED_PREFIX) || folded.includes(RESERVED_INFIX);
}

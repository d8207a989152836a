/**
 * dbt's --defer (with --state or --defer-state): the relations of another
 * environment's manifest (production's target/manifest.json, say) that a
 * ref() may read instead of the current target's. Decided once where the
 * command starts (api/defer-state.ts) and carried in the RunContext, as
 * plain data (a worker thread gets a copy).
 */
export interface Deferral {
  /** dbt's --favor-state: an unselected node reads the state's relation even when the target has its own. */
  readonly favorState: boolean;
  /** By unique id: where the state's manifest built each refable, non-ephemeral node (schema as this connection names it). */
  readonly relations: Readonly<Record<string, DeferredRelation>>;
  /**
   * SQLite: the state's database files this connection must attach to read them, by schema name
   * (`<name>` -> file); empty on PostgreSQL, where the state's schemas are in the same database.
   */
  readonly attach: Readonly<Record<string, string>>;
}

export interface DeferredRelation {
  /** The schema the relation is read from on this connection (an attached state file's name on SQLite). */
  readonly schema: string;
  readonly alias: string;
  /** The state manifest's own schema, for messages. */
  readonly stateSchema: string;
}

/** dbt's `contract` config (ContractConfig): dict-merged across folder configs, config() and yml. */
export interface ContractConfig {
  readonly enforced: boolean;
  /** dbt's alias_types (default true): a data_type `string` is the engine's text type (Column.TYPE_LABELS). */
  readonly aliasTypes: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The model's contract config; `enforced` only when it is literally true (dbt validates it as a boolean). */
export function contractConfig(config: Readonly<Record<string, unknown>>): ContractConfig {
  const contract = config.contract;
  if (!isRecord(contract)) return { enforced: false, aliasTypes: true };
  return { enforced: contract.enforced === true, aliasTypes: contract.alias_types !== false };
}

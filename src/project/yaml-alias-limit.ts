/**
 * The limit on YAML alias expansion. Nested anchors and aliases ("billion
 * laughs": each level aliasing the one before several times) turn a few
 * lines into billions of nodes; the `yaml` package counts the nodes every
 * alias would copy and stops past `maxAliasCount`. This module names the
 * limit once and turns that stop into a message a user can act on (with no
 * import of `yaml`: --vars loads it lazily).
 */
/** As the `yaml` package's default: plenty for anchors used to share a config block. */
export const MAX_YAML_ALIAS_COUNT = 100;

/** Whether `err` is the `yaml` package's stop on too many aliases. */
export function isAliasLimitError(err: unknown): boolean {
  return err instanceof ReferenceError && /alias count/i.test(err.message);
}

export function aliasLimitMessage(): string {
  return `YAML aliases expand to too many nodes (the limit is ${MAX_YAML_ALIAS_COUNT}): nested anchors and aliases ("billion laughs") are refused`;
}

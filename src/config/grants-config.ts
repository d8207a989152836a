/** dbt's `grants` config: privilege -> grantees, e.g. `{select: [reporter, bi_user]}`. */
export type Grants = Readonly<Record<string, readonly string[]>>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's repr of a config value, as jsonschema's messages print it ('select', 5, ['a']). */
function pythonRepr(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (isRecord(value)) return `{${Object.entries(value).map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  return String(value);
}

/**
 * What is wrong with a merged `grants` config, in the words of dbt's config validation (jsonschema, raised
 * at parse as a config error), or undefined: it must be a dictionary whose values are a grantee or a list
 * of grantees (strings). Absent and null are fine (no grants).
 */
export function grantsConfigProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) return `at path ['grants']: ${pythonRepr(value)} is not of type 'object'`;
  for (const [privilege, grantees] of Object.entries(value)) {
    if (typeof grantees === 'string') continue;
    if (Array.isArray(grantees) && grantees.every((g) => typeof g === 'string')) continue;
    return `at path ['grants'][${pythonRepr(privilege)}]: ${pythonRepr(grantees)} is not valid under any of the given schemas`;
  }
  return undefined;
}

/**
 * The grants a node's merged config asks for (a lone grantee read as a one-element list, as dbt's
 * config does), or undefined when it asks for none: no `grants`, or `grants: {}`, which dbt's
 * apply_grants treats as "leave the relation's grants alone". `{select: []}` is not empty: on a relation
 * that keeps its grants it revokes every select.
 */
export function readGrants(config: Readonly<Record<string, unknown>>): Grants | undefined {
  const value = config.grants;
  if (!isRecord(value) || Object.keys(value).length === 0) return undefined;
  const out: Record<string, string[]> = {};
  for (const [privilege, grantees] of Object.entries(value)) {
    out[privilege] = (Array.isArray(grantees) ? grantees : [grantees]).filter((g): g is string => typeof g === 'string');
  }
  return out;
}

/**
 * dbt's merge of `grants` across config layers (MergeBehavior.DictKeyAppend): a later layer's privilege
 * replaces the earlier list, unless spelled with a `+` (`+select: [x]`), which extends it. A layer that
 * is not a dictionary replaces the whole value (the validation then refuses it).
 */
export function mergeGrants(earlier: unknown, later: unknown): unknown {
  if (!isRecord(later)) return later;
  const out: Record<string, unknown[]> = {};
  if (isRecord(earlier)) for (const [k, v] of Object.entries(earlier)) out[k] = Array.isArray(v) ? [...v] : [v];
  for (const [rawKey, value] of Object.entries(later)) {
    const extend = rawKey.startsWith('+');
    const key = extend ? rawKey.replace(/^\++/, '') : rawKey;
    const list = Array.isArray(value) ? value : [value];
    out[key] = extend && out[key] ? [...out[key]!, ...list] : [...list];
  }
  return out;
}

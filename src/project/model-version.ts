/**
 * dbt's model versions (dbt 1.5+): a model entry with `versions:` in a
 * properties file is one model node per version. Inside mini-dbt each
 * version is keyed by dbt's search name, `<name>.v<v>` (what ref('name', v=1)
 * looks up, what `ls` prints after the project); its unique id is
 * `model.<package>.<name>.v<v>`, its default alias `<name>_v<v>` with dots
 * turned into underscores (dbt's generate_alias_name).
 */

/** A version as written in yml: `v: 1`, `v: 1.5`, `v: "beta"`. */
export type VersionValue = string | number;

/** What one versioned model node knows of its version. */
export interface ModelVersion {
  /** The model's name as described (`dim_orders`); manifest.json's `name`. */
  readonly modelName: string;
  readonly v: VersionValue;
  /** `latest_version:`, else the greatest v. */
  readonly latest: VersionValue;
  /** Every version of the model, in yml order (for errors and selection). */
  readonly all: readonly VersionValue[];
  /** `defined_in:` (a file name without extension), when given. */
  readonly definedIn?: string;
  /** `deprecation_date:` as written. */
  readonly deprecationDate?: string;
  /** Where the version's entry is, for errors: the yml file and line (the line found when read: finding it parses the file with positions). */
  readonly location: { readonly file: string; readonly line?: number };
}

/** dbt's search name of a version: `dim_orders.v2`. */
export function versionKey(modelName: string, v: VersionValue): string {
  return `${modelName}.v${String(v)}`;
}

/** The file (without extension) that defines a version by default: `dim_orders_v2`. */
export function versionFileStem(version: ModelVersion): string {
  return version.definedIn ?? `${version.modelName}_v${String(version.v)}`;
}

/** dbt's default alias of a version: `<name>_v<v>`, dots in v turned into underscores. */
export function versionAlias(version: Pick<ModelVersion, 'modelName' | 'v'>): string {
  return `${version.modelName}_v${String(version.v).replace(/\./g, '_')}`;
}

/** dbt's order of versions: as numbers when both read as numbers, else as text. */
export function compareVersions(a: VersionValue, b: VersionValue): number {
  const x = Number(a);
  const y = Number(b);
  if (String(a).trim() !== '' && String(b).trim() !== '' && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  const s = String(a);
  const t = String(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

/** Two written versions name the same one (dbt compares them as text: 1 and '1' are one version). */
export function sameVersion(a: VersionValue, b: VersionValue): boolean {
  return String(a) === String(b);
}

/** The version's place among its model's: `latest`, `prerelease` (above latest) or `old` (below it). */
export function versionStanding(version: Pick<ModelVersion, 'v' | 'latest'>): 'latest' | 'prerelease' | 'old' {
  if (sameVersion(version.v, version.latest)) return 'latest';
  return compareVersions(version.v, version.latest) > 0 ? 'prerelease' : 'old';
}

/** The last parts of a model's fqn: its name, or for a version its model's name and `v<v>` (dbt's fqn). */
export function modelFqnTail(file: { readonly name: string; readonly version?: ModelVersion }): string[] {
  return file.version ? [file.version.modelName, `v${String(file.version.v)}`] : [file.name];
}

/** A model's relation name when no alias is configured: its name, or a version's `<name>_v<v>`. */
export function defaultModelAlias(file: { readonly name: string; readonly version?: ModelVersion }): string {
  return file.version ? versionAlias(file.version) : file.name;
}

import { semverLib } from './semver-lib.js';

export type Matcher = '>=' | '>' | '<=' | '<' | '=';

/** One of dbt's version specifiers: `>=1.0.0`, `<2.0.0`, `1.3.0` (exact: `=`). */
export interface VersionSpecifier {
  readonly matcher: Matcher;
  /** The version in semver's spelling (dbt also reads `1.0.0rc1` as `1.0.0-rc1`). */
  readonly version: string;
  readonly prerelease: boolean;
}

const IDENT = '(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)';
const NUM = '(0|[1-9]\\d*)';
const PATTERN = new RegExp(
  `^(>=|>|<=|<|=)?${NUM}\\.${NUM}\\.${NUM}(?:-?(${IDENT}(?:\\.${IDENT})*))?(?:\\+([0-9A-Za-z-]*(?:\\.[0-9A-Za-z-]*)*))?$`,
);

/** Read a specifier as dbt's semver reads it; anything else is dbt's "is not a valid semantic version". */
export function parseVersionSpecifier(text: string): VersionSpecifier {
  const m = PATTERN.exec(text);
  if (!m) throw new Error(`"${text}" is not a valid semantic version.`);
  const pre = m[5] ? `-${m[5]}` : '';
  const build = m[6] !== undefined ? `+${m[6]}` : '';
  return { matcher: (m[1] ?? '=') as Matcher, version: `${m[2]}.${m[3]}.${m[4]}${pre}${build}`, prerelease: pre !== '' };
}

/** dbt's spelling of a specifier in messages: the matcher, `=` for an exact one, then the version. */
export function specifierText(s: VersionSpecifier): string {
  return `${s.matcher}${s.version}`;
}

/** Whether a version string is one dbt's semver reads (hub versions that are not are ignored). */
export function isVersion(text: string): boolean {
  return PATTERN.test(text) && !/^[<>=]/.test(text);
}

/** Versions by semver precedence (build metadata ignored). */
export function compareVersions(a: string, b: string): number {
  return semverLib().compare(parseVersionSpecifier(a).version, parseVersionSpecifier(b).version);
}

/** A version is a prerelease (`1.0.0-b1`, `1.0.0rc1`). */
export function isPrerelease(version: string): boolean {
  return parseVersionSpecifier(version).prerelease;
}

import { semverLib } from './semver-lib.js';
import { parseVersionSpecifier, specifierText, type VersionSpecifier } from './version-specifier.js';

interface Bound {
  readonly spec: VersionSpecifier;
  readonly inclusive: boolean;
}

/** The versions every specifier allows: a lower and an upper bound, each optional (dbt's VersionRange). */
export interface VersionRange {
  readonly lower?: Bound;
  readonly upper?: Bound;
}

const cmp = (a: Bound, b: Bound) => semverLib().compare(a.spec.version, b.spec.version);

/**
 * Intersect specifiers as dbt's reduce_versions does; undefined when they allow no version at all
 * (`>=2.0.0` and `<1.0.0`, or two different exact versions).
 */
export function reduceSpecifiers(texts: readonly string[]): VersionRange | undefined {
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  for (const text of texts) {
    const spec = parseVersionSpecifier(text);
    const inclusive = spec.matcher === '=' || spec.matcher === '>=' || spec.matcher === '<=';
    const bound = { spec, inclusive };
    if (spec.matcher !== '<' && spec.matcher !== '<=') {
      if (!lower || cmp(bound, lower) > 0 || (cmp(bound, lower) === 0 && !inclusive)) lower = bound;
    }
    if (spec.matcher !== '>' && spec.matcher !== '>=') {
      if (!upper || cmp(bound, upper) < 0 || (cmp(bound, upper) === 0 && !inclusive)) upper = bound;
    }
  }
  if (lower && upper) {
    const order = cmp(lower, upper);
    if (order > 0 || (order === 0 && !(lower.inclusive && upper.inclusive))) return undefined;
  }
  return { lower, upper };
}

/** Whether `version` lies in the range. */
export function inRange(version: string, range: VersionRange): boolean {
  const v = parseVersionSpecifier(version).version;
  if (range.lower) {
    const c = semverLib().compare(v, range.lower.spec.version);
    if (c < 0 || (c === 0 && !range.lower.inclusive)) return false;
  }
  if (range.upper) {
    const c = semverLib().compare(v, range.upper.spec.version);
    if (c > 0 || (c === 0 && !range.upper.inclusive)) return false;
  }
  return true;
}

/** dbt's spelling of a range: `ANY`, or its bounds (`>=1.0.0, <2.0.0`; an exact one `=1.3.0, =1.3.0`). */
export function rangeText(range: VersionRange): string {
  const parts = [range.lower, range.upper].filter((b): b is Bound => b !== undefined).map((b) => specifierText(b.spec));
  return parts.length === 0 ? 'ANY' : parts.join(', ');
}

/** A list as Python prints it, which dbt's messages show: ['>=1.0.0', '<2.0.0']. */
export function pythonList(items: readonly string[]): string {
  return `[${items.map((s) => `'${s}'`).join(', ')}]`;
}

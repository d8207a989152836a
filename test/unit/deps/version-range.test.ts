import { describe, expect, it } from 'vitest';
import { inRange, rangeText, reduceSpecifiers } from '../../../src/deps/version-range.js';
import { compareVersions, parseVersionSpecifier } from '../../../src/deps/version-specifier.js';
import { packagesHash } from '../../../src/deps/lock-file.js';

describe("dbt's version specifiers and ranges", () => {
  it('reads what dbt reads, and refuses the rest in its words', () => {
    expect(parseVersionSpecifier('1.3.0')).toEqual({ matcher: '=', version: '1.3.0', prerelease: false });
    expect(parseVersionSpecifier('>=1.0.0')).toMatchObject({ matcher: '>=', version: '1.0.0' });
    expect(parseVersionSpecifier('<=2.0.0')).toMatchObject({ matcher: '<=', version: '2.0.0' });
    expect(parseVersionSpecifier('1.0.0rc1')).toMatchObject({ version: '1.0.0-rc1', prerelease: true });
    expect(parseVersionSpecifier('1.0.0-b2+build.5')).toMatchObject({ version: '1.0.0-b2+build.5', prerelease: true });
    for (const bad of ['1.0', '~1.0.0', '^1.0.0', '01.0.0', 'v1.0.0', '>= 1.0.0']) {
      expect(() => parseVersionSpecifier(bad), bad).toThrow(`"${bad}" is not a valid semantic version.`);
    }
  });

  it('intersects ranges, and finds none where dbt finds none', () => {
    const range = reduceSpecifiers(['>=1.0.0', '<2.0.0', '>=1.2.0'])!;
    expect(rangeText(range)).toBe('>=1.2.0, <2.0.0');
    expect(inRange('1.2.0', range)).toBe(true);
    expect(inRange('1.9.9', range)).toBe(true);
    expect(inRange('2.0.0', range)).toBe(false);
    expect(inRange('1.1.0', range)).toBe(false);
    expect(rangeText(reduceSpecifiers([])!)).toBe('ANY');
    expect(rangeText(reduceSpecifiers(['>=1.0.0', '1.3.0'])!)).toBe('=1.3.0, =1.3.0');
    expect(reduceSpecifiers(['>=2.0.0', '<2.0.0'])).toBeUndefined();
    expect(reduceSpecifiers(['1.0.0', '1.0.1'])).toBeUndefined();
    expect(reduceSpecifiers(['>1.0.0', '<=1.0.0'])).toBeUndefined();
    expect(reduceSpecifiers(['>=1.0.0', '<=1.0.0'])).toBeDefined();
  });

  it('orders versions by semver precedence (a prerelease before its release)', () => {
    expect(['1.10.0', '1.2.0', '1.2.0-rc1', '0.9.0'].sort(compareVersions)).toEqual(['0.9.0', '1.2.0-rc1', '1.2.0', '1.10.0']);
  });

  it("hashes the packages as dbt's sha1_hash does (the hashes of dbt's own deps tests)", () => {
    expect(packagesHash([{ package: 'fivetran/fivetran_utils', version: '0.4.7' }])).toBe('71304bca2138cf8004070b3573a1e17183c0c1a8');
    const git = 'https://github.com/dbt-labs/dbt-multipe-packages.git';
    expect(packagesHash([
      { git, subdirectory: 'dbt-utils-main', revision: 'v0.1.0' },
      { git, subdirectory: 'dbt-date-main', revision: 'v0.1.0' },
    ])).toBe('b9c8042f29446c55a33f9f211737f445a640c7a1');
    const a = { package: 'dbt-labs/dbt_utils', version: ['>=1.0.0', '<2.0.0'] };
    const b = { local: '../x' };
    expect(packagesHash([a, b])).toBe(packagesHash([b, { version: a.version, package: a.package }]));
    expect(packagesHash([a])).not.toBe(packagesHash([{ ...a, version: '1.3.0' }]));
    expect(packagesHash([])).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
  });
});

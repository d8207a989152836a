import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { DBT_VERSION } from '../invocation/tool-version.js';
import { parsePackageEntries, type HubSpec } from './package-spec.js';
import type { PinContext } from './pin-context.js';
import type { PinnedPackage } from './pinned-package.js';
import { inRange, pythonList, rangeText, reduceSpecifiers } from './version-range.js';
import { compareVersions, isPrerelease, isVersion, parseVersionSpecifier, specifierText } from './version-specifier.js';

/** A hub package with every requirement on it so far (dbt's incorporate: the version lists add up). */
export async function pinHub(reqs: readonly HubSpec[], ctx: PinContext): Promise<PinnedPackage> {
  const name = reqs[0]!.package;
  const first = reqs[0]!.requiredBy;
  const names = await ctx.hub.packageNames();
  if (!names.includes(name)) {
    throw new ProjectError(`Package ${name} was not found in the package index.${didYouMeanSuffix(name, names)}`, {
      location: { file: first.file, line: first.line },
      hint: `hub packages are named <organisation>/<package>, as listed on ${ctx.hub.baseUrl}`,
    });
  }
  const written = reqs.flatMap((r) => r.versions);
  const range = reduceSpecifiers(written);
  if (!range) {
    const options = pythonList(written.map((v) => specifierText(parseVersionSpecifier(v))));
    const by = reqs.map((r) => `${r.versions.map((v) => specifierText(parseVersionSpecifier(v))).join(', ')} by ${r.requiredBy.label}`);
    throw new ProjectError(`Version error for package ${name}: Could not find a satisfactory version from options: ${options}`, {
      hint: `${name} is required as ${by.join(' and as ')}: no version satisfies all of them`,
    });
  }
  const versions = await ctx.hub.versions(name);
  const prerelease = reqs.some((r) => r.installPrerelease || r.versions.some((v) => parseVersionSpecifier(v).prerelease));
  // As dbt: only versions whose require_dbt_version admits the dbt version (unless the check is off).
  const versionCheck = !/^(false|0|no)$/i.test(process.env.DBT_VERSION_CHECK ?? '');
  const compatible = [...versions.values()].filter((v) => !versionCheck || worksWithDbt(v.requireDbtVersion)).map((v) => v.version);
  const installable = compatible.filter((v) => isVersion(v) && (prerelease || !isPrerelease(v))).sort(compareVersions);
  const target = installable.filter((v) => inRange(v, range)).at(-1);
  if (!target) {
    throw new ProjectError(
      `Could not find a matching compatible version for package ${name}\n  Requested range: ${rangeText(range)}\n  Compatible versions: ${pythonList(installable)}` +
        (versionCheck ? `\n  Not shown: package versions incompatible with the dbt version mini-dbt behaves as (${DBT_VERSION})\n  To include them, set DBT_VERSION_CHECK=false (dbt's --no-version-check)` : ''),
      { location: { file: first.file, line: first.line }, hint: `pick a version range that includes one of the versions the hub lists for ${name}` },
    );
  }
  const info = versions.get(target)!;
  const label = `${name}@${target}`;
  return {
    kind: 'hub',
    name: info.name,
    package: name,
    version: target,
    latest: installable.at(-1)!,
    tarball: info.tarball,
    deps: parsePackageEntries(info.packages, { label }),
  };
}

/** A hub version's require_dbt_version admits the dbt version mini-dbt behaves as (unreadable specifiers admit it). */
function worksWithDbt(required: readonly string[]): boolean {
  if (required.length === 0) return true;
  try {
    return reduceSpecifiers([DBT_VERSION, ...required]) !== undefined;
  } catch {
    return true;
  }
}

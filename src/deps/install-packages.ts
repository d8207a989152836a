import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { niceVersionName, pinnedName, type PinnedPackage } from './pinned-package.js';
import { downloadAndUnpack } from './tarball.js';
import { pythonList } from './version-range.js';

/** A line of deps' output, with dbt's name of the event (--log-format json). */
export type DepsLog = (text: string, event?: string) => void;

/**
 * The temporary folder of one `deps`, next to the install path: downloads and the new install
 * path are built in it, and only a complete install is renamed into place.
 */
export interface Staging {
  readonly dir: string;
  readonly downloads: string;
  readonly packages: string;
}

/** Whether process `pid` is running (on this machine). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function createStaging(installDir: string): Staging {
  const parent = dirname(installDir);
  const prefix = `.${basename(installDir)}.installing-`;
  mkdirSync(parent, { recursive: true });
  // The temporary folders of a deps that was killed (its process is gone) are removed.
  for (const entry of readdirSync(parent)) {
    const pid = entry.startsWith(prefix) ? Number(/^(\d+)-/.exec(entry.slice(prefix.length))?.[1]) : NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(join(parent, entry), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(parent, `${prefix}${process.pid}-`));
  const staging = { dir, downloads: join(dir, 'downloads'), packages: join(dir, 'packages') };
  mkdirSync(staging.downloads);
  mkdirSync(staging.packages);
  return staging;
}

/** Remove the temporary folder (symlinks to local packages are removed, never followed). */
export function removeStaging(staging: Staging): void {
  rmSync(staging.dir, { recursive: true, force: true });
}

/** Install every pinned package into the staging folder, printing dbt's lines for each. */
export async function installPinned(packages: readonly PinnedPackage[], staging: Staging, log: DepsLog): Promise<void> {
  const upgrades: string[] = [];
  let n = 0;
  for (const p of packages) {
    log(`Installing ${pinnedName(p)}`, 'DepsStartPackageInstall');
    const dest = join(staging.packages, p.name);
    if (p.kind === 'hub') {
      renameSync(await downloadAndUnpack(p.tarball, join(staging.downloads, `hub-${++n}`)), dest);
    } else if (p.kind === 'git') {
      renameSync(p.root, dest);
    } else {
      // dbt links a local package into the install path (and copies it where links are not available).
      try {
        symlinkSync(p.path, dest, 'dir');
      } catch {
        cpSync(p.path, dest, { recursive: true });
      }
    }
    log(`Installed from ${niceVersionName(p)}`, 'DepsInstallInfo');
    if (p.kind === 'hub') {
      if (p.latest !== p.version) {
        upgrades.push(p.package);
        log(`Updated version available: ${p.latest}`, 'DepsUpdateAvailable');
      } else {
        log('Up to date!', 'DepsUpToDate');
      }
    }
    if (p.kind === 'git' && p.subdirectory) log(`and subdirectory ${p.subdirectory}`, 'DepsListSubdirectory');
  }
  if (upgrades.length > 0) {
    log('');
    log(`Updates available for packages: ${pythonList(upgrades)}\nUpdate your versions in packages.yml, then run mini-dbt deps`, 'DepsNotifyUpdatesAvailable');
  }
}

/** Put the staged install path in place of the old one (which is kept until the new one is there). */
export function swapInstall(staging: Staging, installDir: string): void {
  const previous = join(staging.dir, 'previous');
  const hadOld = existsSync(installDir);
  if (hadOld) renameSync(installDir, previous);
  try {
    renameSync(staging.packages, installDir);
  } catch (err) {
    if (hadOld) renameSync(previous, installDir);
    throw err;
  }
}

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
// @ts-expect-error: a plain .mjs module (also run as a child process)
import { startHubServer } from './deps-hub-server.mjs';

/** One hub package: its project name and, per version, the packages that version declares. */
export interface HubPackage {
  readonly name: string;
  readonly versions: Readonly<Record<string, { readonly packages?: readonly unknown[]; readonly files?: Readonly<Record<string, string>>; readonly requireDbtVersion?: readonly string[] }>>;
}

export interface HubServer {
  readonly url: string;
  /** Every path asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * Write a hub as static files into `dir`: the index, each package's JSON (dbt's
 * api/v1 format) and a .tar.gz per version whose single top folder holds a small
 * dbt project (as GitHub's archives of dbt_utils do).
 */
export function writeHub(dir: string, packages: Readonly<Record<string, HubPackage>>): void {
  mkdirSync(join(dir, 'api/v1'), { recursive: true });
  writeFileSync(join(dir, 'api/v1/index.json'), JSON.stringify(Object.keys(packages)));
  const scratch = mkdtempSync(join(tmpdir(), 'mini-dbt-hub-src-'));
  for (const [full, pkg] of Object.entries(packages)) {
    const [org, name] = full.split('/') as [string, string];
    const versions: Record<string, unknown> = {};
    for (const [version, spec] of Object.entries(pkg.versions)) {
      const top = `${org}-${name}-${version}`;
      writeFiles(join(scratch, top), {
        'dbt_project.yml': `name: ${pkg.name}\nversion: '${version}'\nconfig-version: 2\n`,
        [`macros/${pkg.name}.sql`]: `{% macro ${pkg.name}_version() %}'${version}'{% endmacro %}\n`,
        ...(spec.files ?? {}),
      });
      const tarball = join(dir, 'tarballs', org, `${name}-${version}.tar.gz`);
      mkdirSync(dirname(tarball), { recursive: true });
      tar.c({ gzip: true, sync: true, cwd: scratch, file: tarball, portable: true }, [top]);
      versions[version] = {
        id: `${full}/${version}`,
        name: pkg.name,
        version,
        published_at: '2024-01-01T00:00:00Z',
        packages: spec.packages ?? [],
        works_with: [],
        ...(spec.requireDbtVersion ? { require_dbt_version: spec.requireDbtVersion } : {}),
        _source: { type: 'github', url: `https://github.com/${full}/tree/${version}/`, readme: '' },
        downloads: { tarball: `{{BASE}}tarballs/${org}/${name}-${version}.tar.gz`, format: 'tgz', sha1: '' },
      };
    }
    const versionNames = Object.keys(versions);
    mkdirSync(join(dir, 'api/v1', org), { recursive: true });
    writeFileSync(join(dir, 'api/v1', org, `${name}.json`), JSON.stringify({ name, namespace: org, description: '', latest: versionNames.at(-1), assets: {}, versions }));
  }
  rmSync(scratch, { recursive: true, force: true });
}

/** Serve a hub folder from this process (for CLIs run with runCliAsync). */
export function serveHub(dir: string): Promise<HubServer> {
  return startHubServer(dir) as Promise<HubServer>;
}

/** Serve a hub folder from a child process (for CLIs run with the blocking runCli); returns its URL and a stop. */
export function serveHubInChild(dir: string): { url: string; stop: () => void } {
  const portFile = join(dir, '.port');
  rmSync(portFile, { force: true });
  const child = spawn(process.execPath, [join(import.meta.dirname, 'deps-hub-server.mjs'), dir, portFile], { stdio: 'ignore' });
  const until = Date.now() + 10_000;
  let url = '';
  while (!url.startsWith('http://') && Date.now() < until) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    if (existsSync(portFile)) url = readFileSync(portFile, 'utf8');
  }
  if (!url.startsWith('http://')) {
    child.kill('SIGKILL');
    throw new Error(`the fixture hub did not start within 10 s (port file ${portFile}: ${JSON.stringify(url)})`);
  }
  return { url, stop: () => child.kill('SIGKILL') };
}

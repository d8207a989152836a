import { ProjectError } from '../errors/project-error.js';

/** One version of a hub package, as the hub's JSON lists it. */
export interface HubVersion {
  /** The package's project name (its dbt_project.yml `name:`), its install folder. */
  readonly name: string;
  readonly version: string;
  /** Its own dependencies: packages.yml entries. */
  readonly packages: readonly unknown[];
  readonly tarball: string;
  /** The dbt versions it works with (`require_dbt_version`: specifiers), when the hub says. */
  readonly requireDbtVersion: readonly string[];
}

/** dbt's hub, or DBT_PACKAGE_HUB_URL (read as dbt reads it). */
export function hubBaseUrl(): string {
  const url = process.env.DBT_PACKAGE_HUB_URL || 'https://hub.getdbt.com/';
  return url.endsWith('/') ? url : `${url}/`;
}

function unreachable(url: string, why: string): ProjectError {
  return new ProjectError(`could not reach the package hub: GET ${url} failed: ${why}`, {
    hint: 'check the network connection (the hub is DBT_PACKAGE_HUB_URL when set, else https://hub.getdbt.com/); installed packages were left as they were',
  });
}

/**
 * The hub's JSON API, as dbt reads it: api/v1/index.json (every package name) and
 * api/v1/<org>/<name>.json (each version's dependencies and tarball). Each is fetched once per command.
 */
export class HubClient {
  private index?: Promise<readonly string[]>;
  private readonly packages = new Map<string, Promise<ReadonlyMap<string, HubVersion>>>();

  constructor(readonly baseUrl: string = hubBaseUrl()) {}

  packageNames(): Promise<readonly string[]> {
    this.index ??= this.getJson('index').then((body) => {
      if (!Array.isArray(body) || body.some((n) => typeof n !== 'string')) throw unreachable(`${this.baseUrl}api/v1/index.json`, 'the index is not a list of package names');
      return body as string[];
    });
    return this.index;
  }

  versions(name: string): Promise<ReadonlyMap<string, HubVersion>> {
    let found = this.packages.get(name);
    if (!found) {
      found = this.getJson(name).then((body) => readVersions(body, `${this.baseUrl}api/v1/${name}.json`));
      this.packages.set(name, found);
    }
    return found;
  }

  private async getJson(path: string): Promise<unknown> {
    const url = `${this.baseUrl}api/v1/${path}.json`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      throw unreachable(url, causeOf(err));
    }
    if (!response.ok) throw unreachable(url, `HTTP ${response.status} ${response.statusText}`.trim());
    try {
      return await response.json();
    } catch {
      throw unreachable(url, 'the response is not JSON');
    }
  }
}

function readVersions(body: unknown, url: string): ReadonlyMap<string, HubVersion> {
  const versions = (body as { versions?: unknown } | null)?.versions;
  if (versions === null || typeof versions !== 'object' || Array.isArray(versions)) throw unreachable(url, "the response has no 'versions' mapping");
  const out = new Map<string, HubVersion>();
  for (const [version, info] of Object.entries(versions as Record<string, unknown>)) {
    const v = info as { name?: unknown; packages?: unknown; downloads?: { tarball?: unknown }; require_dbt_version?: unknown } | null;
    if (typeof v?.name !== 'string' || typeof v.downloads?.tarball !== 'string') {
      throw unreachable(url, `version ${version} lacks its name or downloads.tarball`);
    }
    const required = v.require_dbt_version;
    const requireDbtVersion = (Array.isArray(required) ? required : required ? [required] : []).map(String);
    out.set(version, { name: v.name, version, packages: Array.isArray(v.packages) ? v.packages : [], tarball: v.downloads.tarball, requireDbtVersion });
  }
  return out;
}

/** The reason under fetch's "fetch failed" (ECONNREFUSED, ENOTFOUND, a timeout). */
export function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`;
  if (err instanceof Error && err.name === 'TimeoutError') return 'no answer within 30 s';
  return err instanceof Error ? (cause?.message ?? err.message) : String(err);
}

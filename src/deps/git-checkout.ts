import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { ProjectError } from '../errors/project-error.js';

/** A package checked out from git: its folder (the subdirectory, when given) and the commit it is at. */
export interface GitCheckout {
  readonly root: string;
  readonly sha: string;
}

const COMMIT = /^[0-9a-f]{40}$/;

/** A full commit sha, which dbt fetches by id instead of cloning as a branch or tag. */
export function isCommit(revision: string): boolean {
  return COMMIT.test(revision);
}

class GitFailure extends Error {
  constructor(readonly stderr: string) {
    super(stderr);
  }
}

function git(args: readonly string[], cwd?: string): string {
  const out = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    // No prompt for credentials (a script would hang on it); messages in English, as dbt asks for.
    env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo' },
    timeout: 300_000,
  });
  if (out.error) {
    const missing = (out.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ProjectError(missing ? 'git is not installed (or not on PATH): git packages are cloned with the system git' : `git ${args[0]} failed: ${out.error.message}`);
  }
  if (out.status !== 0) throw new GitFailure(out.stderr);
  return out.stdout;
}

/** The lines of git's stderr that say what went wrong. */
function gist(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const fatal = lines.filter((l) => /^(fatal|error):/.test(l));
  return (fatal.length > 0 ? fatal : lines.slice(-1)).join('; ') || 'git failed';
}

const MISSING_REVISION = /Remote branch .* not found|not our ref|couldn't find remote ref|unknown revision|did not match any/i;

function checkoutError(url: string, shown: string, revision: string, err: unknown): unknown {
  if (!(err instanceof GitFailure)) return err;
  const what = `Error checking out spec='${revision}' for repo ${shown}`;
  // git's words name the URL it was given: show it as written (a token from env_var() stays out).
  const said = gist(err.stderr.replaceAll(url, shown));
  if (MISSING_REVISION.test(err.stderr)) {
    return new ProjectError(`${what}: revision '${revision}' was not found (${said})`, {
      hint: "revision: takes a branch, a tag or a full 40-character commit sha of the repository",
    });
  }
  return new ProjectError(`${what}: ${said}`, { hint: 'check the git URL, the network and your access to the repository' });
}

/**
 * Clone `url` into `into` at `revision` (a branch, a tag, a full commit sha; the default branch
 * when none), as dbt does: a shallow clone of the branch or tag, or of the default branch and
 * then a fetch of the commit by id.
 */
export function gitCheckout(url: string, revision: string | undefined, subdirectory: string | undefined, into: string, shown = url): GitCheckout {
  const spec = revision ?? 'HEAD';
  try {
    const branch = revision !== undefined && revision !== 'HEAD' && !isCommit(revision) ? ['--branch', revision] : [];
    git(['-c', 'advice.detachedHead=false', 'clone', '--quiet', '--depth', '1', ...branch, url, into]);
    if (revision !== undefined && isCommit(revision)) {
      git(['fetch', '--quiet', 'origin', '--depth', '1', revision], into);
      git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', revision], into);
    }
  } catch (err) {
    throw checkoutError(url, shown, spec, err);
  }
  const sha = git(['rev-parse', 'HEAD'], into).trim();
  const root = subdirectory ? join(into, subdirectory) : into;
  const inside = relative(into, root);
  if (inside.startsWith('..') || isAbsolute(inside)) throw new ProjectError(`subdirectory '${subdirectory}' of ${shown} is outside the repository`);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new ProjectError(`subdirectory '${subdirectory}' does not exist in ${shown} at revision ${spec} (${sha})`);
  }
  return { root, sha };
}

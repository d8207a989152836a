import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const git = (args: readonly string[], cwd?: string) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

export interface BareRepo {
  /** file:// URL of the bare repository. */
  readonly url: string;
  /** The commit the tag points at. */
  readonly tagSha: string;
  /** The head of main: one commit after the tag. */
  readonly headSha: string;
}

/**
 * A bare repository at `bare` with two commits on main: `files` (tagged `tag`),
 * then `later` on top of them.
 */
export function bareRepo(bare: string, files: Readonly<Record<string, string>>, tag: string, later: Readonly<Record<string, string>>): BareRepo {
  mkdirSync(bare, { recursive: true });
  git(['init', '--quiet', '--bare', bare]);
  const work = mkdtempSync(join(tmpdir(), 'mini-dbt-git-work-'));
  git(['init', '--quiet', work]);
  const commit = (set: Readonly<Record<string, string>>, message: string) => {
    for (const [path, text] of Object.entries(set)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    git(['add', '-A'], work);
    git(['commit', '--quiet', '-m', message], work);
    return git(['rev-parse', 'HEAD'], work);
  };
  const tagSha = commit(files, 'first');
  git(['tag', tag], work);
  const headSha = commit(later, 'second');
  git(['push', '--quiet', bare, 'main', '--tags'], work);
  rmSync(work, { recursive: true, force: true });
  return { url: pathToFileURL(bare).href, tagSha, headSha };
}

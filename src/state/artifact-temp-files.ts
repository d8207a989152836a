/**
 * The temporary files a run's last artifacts (manifest.json,
 * run_results.json) are written through, created ahead: in the file
 * system's thread pool, while the run renders and its SQL runs, instead of
 * when the run is over. Creating a file (a new inode) is most of the cost of
 * writing a small one on ext4 after heavy writes (0.1-0.4 ms each, where
 * writing its text takes 0.02 ms); written later, the file is what it was
 * (same text, same name, replaced by the same renames, see
 * write-file-atomically.ts). Each temporary file has its own name, so two
 * runs in one process never share one; one that no write took is removed
 * when the run ends. A run killed in between leaves its empty temporary
 * files in target/, as a write killed half-way leaves its one.
 */
import { closeSync, open, unlinkSync } from 'node:fs';

export interface TempFile {
  readonly path: string;
  readonly fd: number;
}

/** The temporary files created ahead, by the final path they are for; the oldest first. */
const created = new Map<string, TempFile[]>();
let sequence = 0;

/** A temporary file created ahead for `path`, now the caller's (it writes, closes and renames it); undefined when none is. */
export function takeTempFile(path: string): TempFile | undefined {
  const list = created.get(path);
  const taken = list?.shift();
  if (list && list.length === 0) created.delete(path);
  return taken;
}

/** One run's temporary files created ahead. */
export class ArtifactTempFiles {
  private readonly opening: Promise<TempFile | undefined>[] = [];

  /** Start creating a temporary file for `path` (not waited for; a failure only means the write creates its own). */
  prepare(path: string): void {
    const temp = `${path}.${process.pid}.${++sequence}.tmp`;
    this.opening.push(new Promise((resolve) => {
      open(temp, 'wx', (err, fd) => {
        if (err) return resolve(undefined);
        const file = { path: temp, fd };
        const list = created.get(path);
        if (list) list.push(file);
        else created.set(path, [file]);
        resolve(file);
      });
    }));
  }

  /** Until every file being created is there (one turn of the event loop when they already are). */
  async ready(): Promise<void> {
    await Promise.all(this.opening);
  }

  /** Close and remove those of this run's files that no write took (after `ready`, or they are left to the event loop). */
  async discard(): Promise<void> {
    const files = await Promise.all(this.opening);
    for (const file of files) {
      if (!file) continue;
      for (const [path, list] of created) {
        const at = list.indexOf(file);
        if (at < 0) continue;
        list.splice(at, 1);
        if (list.length === 0) created.delete(path);
        try {
          closeSync(file.fd);
          unlinkSync(file.path);
        } catch {
          // gone already
        }
      }
    }
  }
}

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** The process that records a run row: enough to tell later whether it is still running. */
export interface RunOwner {
  readonly pid: number | null;
  readonly host: string | null;
  /** Linux: `<boot id>:<start tick>` of the process, so a later process reusing the pid is not taken for it. */
  readonly process_start: string | null;
}

/** Linux's boot id and the start time of a process (field 22 of /proc/<pid>/stat); null elsewhere or when it is gone. */
function processStart(pid: number): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start === undefined ? null : `${boot}:${start}`;
  } catch {
    return null;
  }
}

/** This process's start, read once (every run of a process records the same). */
let ownStart: { readonly pid: number; readonly start: string | null } | undefined;

/** This process. */
export function currentRunOwner(): RunOwner {
  if (ownStart?.pid !== process.pid) ownStart = { pid: process.pid, start: processStart(process.pid) };
  return { pid: process.pid, host: hostname(), process_start: ownStart.start };
}

/**
 * Whether the process that recorded a run is still alive, so it may be named
 * as the lock holder. False when it cannot be shown: no pid recorded (a row
 * from before the ledger kept one), another host, no such process, a process
 * that started later under the same pid, or this very process (which is the
 * one waiting, or a crashed earlier process whose pid it reuses).
 */
export function isRunOwnerAlive(owner: RunOwner): boolean {
  if (owner.pid === null || !Number.isSafeInteger(owner.pid) || owner.pid <= 0 || owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.process_start === null) return true;
  const now = processStart(owner.pid);
  return now === null || now === owner.process_start;
}

import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import Database from 'better-sqlite3';

export interface Machine {
  readonly nproc: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly sqlite: string;
  readonly platform: string;
  /** 1-minute load average when the run started: how noisy the machine was. */
  readonly loadAverage: number;
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) return match[1]!.trim();
  } catch {
    // not Linux
  }
  return cpus()[0]?.model ?? 'unknown';
}

/** What the figures were measured on. */
export function describeMachine(): Machine {
  const db = new Database(':memory:');
  const sqlite = db.prepare('select sqlite_version()').pluck().get() as string;
  db.close();
  let loadAverage = 0;
  try {
    loadAverage = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    // not Linux
  }
  return {
    nproc: availableParallelism(),
    cpu: cpuModel(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    sqlite,
    platform: `${process.platform} ${process.arch}`,
    loadAverage,
  };
}

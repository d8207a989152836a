import { join } from 'node:path';
import type { HistoryFile } from './history-feed.js';
import { createHistoryWorkspace, historyCsv, type HistoryWorkspace } from './history-workspace.js';

/** The scale curve's history lengths unless --curve-scales says otherwise. */
export const DEFAULT_CURVE_SCALES: readonly number[] = [1, 10, 30];

export interface BenchOptions {
  /** History size: 1 = about 1,000 orders a day (1.2 million rows), 10 = ten times that. */
  readonly scale: number;
  /** Measured rounds per figure (after one warm-up round). */
  readonly repeats: number;
  readonly workDir: string;
  /** The history lengths of the scale curve (bench/scale-curve-figure.ts), e.g. [1, 10, 30]. */
  readonly curveScales?: readonly number[];
}

/** What every figure gets: options, a log, and the shared (lazily built) workloads. */
export class BenchContext {
  private workspace?: Promise<HistoryWorkspace>;
  private readonly csvs = new Map<number, HistoryFile>();

  constructor(readonly options: BenchOptions) {}

  get scale(): number {
    return this.options.scale;
  }

  get repeats(): number {
    return this.options.repeats;
  }

  get curveScales(): readonly number[] {
    return this.options.curveScales ?? DEFAULT_CURVE_SCALES;
  }

  path(...parts: string[]): string {
    return join(this.options.workDir, ...parts);
  }

  log(message: string): void {
    process.stderr.write(`  ${message}\n`);
  }

  /** The example project over the history at the bench scale, seeded and fully built. */
  history(): Promise<HistoryWorkspace> {
    this.workspace ??= createHistoryWorkspace(this.path(`history-x${this.scale}`), this.scale).then((ws) => {
      this.log(`history x${this.scale}: ${ws.history.rows.toLocaleString('en-US')} rows, seeded and built in ${(ws.setupMs / 1000).toFixed(1)} s`);
      return ws;
    });
    return this.workspace;
  }

  /** A standalone history CSV at some scale (for the seed loader). */
  historyCsv(scale: number): HistoryFile {
    let file = this.csvs.get(scale);
    if (!file) {
      file = historyCsv(this.path(`raw_orders-x${scale}.csv`), scale);
      this.csvs.set(scale, file);
    }
    return file;
  }
}

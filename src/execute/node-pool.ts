import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { NodePlan } from '../plan/node-plan.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';
import type { NodePoolData, SharedState, ToPool, ToWorker } from './node-pool-messages.js';
import { nodePoolLauncher } from './node-pool-launcher.js';

/**
 * The script a pool thread runs: node-pool-worker.js next to this module in
 * dist/, node-pool-worker.cjs next to the CLI bundle (cli.cjs, or the
 * package's index.js chunks), and from the TypeScript sources (tests run
 * in-process) the built one in dist/. Undefined when none is there.
 */
export function nodePoolScript(here: string = import.meta.url): string | undefined {
  const candidates = [
    ...(here.endsWith('.js') ? [new URL('./node-pool-worker.js', here)] : []),
    new URL('./node-pool-worker.cjs', here),
    ...(here.endsWith('.ts') ? [new URL('../../dist/src/execute/node-pool-worker.js', here)] : []),
  ].map((url) => fileURLToPath(url));
  return candidates.find((path) => existsSync(path));
}

interface Task {
  readonly resolve: (done: { result: NodeResult; state: SharedState }) => void;
  readonly reject: (err: Error) => void;
}

/** One pool thread: its own session and connection, one node at a time. */
class PoolThread {
  private task: Task | undefined;
  private nextTask = 0;
  private ready = false;
  private failure: Error | undefined;

  constructor(
    /** dbt's name for the thread, in run_results.json: Thread-1, Thread-2, ... */
    readonly name: string,
    private readonly worker: Worker,
    private readonly onEvent: (event: RunEvent) => void,
    private readonly onPlanned: (nodeId: string, plan: NodePlan) => void,
  ) {}

  get idle(): boolean {
    return this.ready && this.task === undefined && this.failure === undefined;
  }

  /** Resolves once the thread loaded its session and opened its connection. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // What the thread prints while it loads (warnings the command printed already) is dropped; later output is the node's.
      this.worker.stdout.on('data', (chunk: Buffer) => this.ready && process.stdout.write(chunk));
      this.worker.stderr.on('data', (chunk: Buffer) => this.ready && process.stderr.write(chunk));
      this.worker.on('message', (message: ToPool) => {
        switch (message.type) {
          case 'ready':
            this.ready = true;
            resolve();
            return;
          case 'open-failed':
            reject(revived(message.error));
            return;
          case 'event':
            this.onEvent(message.event);
            return;
          case 'planned':
            this.onPlanned(message.nodeId, message.plan);
            return;
          case 'done': {
            const task = this.task;
            this.task = undefined;
            task?.resolve({ result: { ...message.result, ...(message.result.error ? { error: revived(message.result.error) } : {}) }, state: message.state });
            return;
          }
          case 'crashed':
            this.fail(revived(message.error));
            return;
        }
      });
      this.worker.on('error', (err) => {
        reject(err);
        this.fail(err);
      });
      this.worker.on('exit', (code) => {
        const err = new Error(`a node pool thread stopped (exit code ${code})`);
        reject(err);
        this.fail(err);
      });
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    const task = this.task;
    this.task = undefined;
    task?.reject(err);
  }

  run(nodeId: string, index: number, total: number, state: SharedState): Promise<{ result: NodeResult; state: SharedState }> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.task = { resolve, reject };
      const message: ToWorker = { type: 'run', taskId: this.nextTask++, nodeId, index, total, state };
      this.worker.postMessage(message);
    });
  }

  /** Ask the thread to close its connection and end; end it after a second if it has not. */
  async close(): Promise<void> {
    this.ready = false;
    const exited = new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      setTimeout(resolve, 1000).unref();
    });
    try {
      this.worker.postMessage({ type: 'close' } satisfies ToWorker);
    } catch {
      // gone already
    }
    await exited;
    await this.worker.terminate();
  }
}

/** An error back from a thread (structured clone keeps its message and name; its class is this thread's Error). */
function revived(error: Error | Record<string, unknown>): Error {
  if (error instanceof Error) return error;
  const out = new Error(String(error.message ?? 'error in a node pool thread'));
  Object.assign(out, error);
  return out;
}

/** A thread running `script`: the bundled one through its code cache (node-pool-launcher.ts), a module as it is. */
function startThread(script: string, data: NodePoolData): Worker {
  const options = { stdout: true, stderr: true } as const;
  if (!script.endsWith('.cjs')) return new Worker(script, { ...options, workerData: data });
  return new Worker(`(${nodePoolLauncher.toString()})()`, { ...options, eval: true, workerData: { ...data, script } });
}

/**
 * N threads, each with its own session (loaded again from the command's
 * options, through the parse cache) and its own connection, that run the
 * nodes the scheduler gives them (run-nodes-parallel.ts). Threads become
 * ready one by one; a node goes to whichever is idle.
 */
export class NodePool {
  private readonly threads: PoolThread[];
  /** Each thread's start: resolves when it is ready, rejects when it could not load or connect. */
  readonly starts: Promise<void>[];

  constructor(script: string, count: number, data: NodePoolData, onEvent: (event: RunEvent) => void, onPlanned: (nodeId: string, plan: NodePlan) => void) {
    this.threads = Array.from({ length: count }, (_, i) => new PoolThread(`Thread-${i + 1}`, startThread(script, data), onEvent, onPlanned));
    this.starts = this.threads.map((t) => t.start());
    // A start that fails is read by the scheduler; no unhandled rejection meanwhile.
    for (const start of this.starts) start.catch(() => undefined);
  }

  /** A thread free to take a node, if any. */
  idle(): PoolThread | undefined {
    return this.threads.find((t) => t.idle);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}

import { createRequire } from 'node:module';
import { isMainThread, MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { pgWorkerMain } from './pg-worker-main.js';
import { ConnectionLostError } from '../connection-lost.js';
import { isPgConnectionGone, pgServerLabel, pgUserLabel, type PgServerCoordinates } from './pg-connection-lost.js';

/** One statement's answer from the server. */
export interface PgResult {
  readonly rows: unknown[];
  readonly fields: string[];
  readonly rowCount: number;
  readonly command: string;
  /** Each field's type OID and type modifier, as the server described them (RowDescription). */
  readonly types?: readonly (readonly [number, number])[];
}

/** An error the server (or the driver) raised, with PostgreSQL's SQLSTATE in `code`. */
export class PgError extends Error {
  readonly code?: string;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: string;
  /** Where it happened (a COPY's line and column: `COPY t, line 3, column a: "x"`). */
  readonly where?: string;

  constructor(fields: Record<string, unknown>) {
    super(String(fields.message ?? 'PostgreSQL error'));
    this.name = 'PgError';
    for (const key of ['code', 'detail', 'hint', 'position', 'where'] as const) {
      if (typeof fields[key] === 'string') (this as Record<string, unknown>)[key] = fields[key];
    }
    if (this.code === undefined && typeof fields.code === 'string') this.code = fields.code;
  }
}

/** MINI_DBT_PG_TRACE=1: every round trip to the server on stderr, with its milliseconds (for profiling). */
const TRACE = process.env.MINI_DBT_PG_TRACE === '1' || process.env.MINI_DBT_PG_TRACE === 'full';
const TRACE_CHARS = process.env.MINI_DBT_PG_TRACE === 'full' ? Infinity : 160;

let lastTraced = 0;

function traced<T>(request: Record<string, unknown>, call: () => T): T {
  const started = performance.now();
  const gap = lastTraced === 0 ? 0 : started - lastTraced;
  let failed = false;
  try {
    return call();
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    const text = typeof request.text === 'string' ? ` ${request.text.replace(/\s+/g, ' ').slice(0, TRACE_CHARS)}` : '';
    lastTraced = performance.now();
    process.stderr.write(`[pg ${(lastTraced - started).toFixed(2)} ms, +${gap.toFixed(2)}] ${String(request.op)}${failed ? ' (failed)' : ''}${text}\n`);
  }
}

/** Waited on (never notified) to pause this thread for a millisecond. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * A synchronous client over the asynchronous `pg` driver: the driver runs on
 * a worker thread, and each call posts a request and blocks this thread on
 * Atomics.wait until the worker answers (the synckit pattern). The engine
 * interface is synchronous (engine.ts says why); this is how PostgreSQL fits
 * it. One client is one server connection.
 *
 * The worker takes requests one at a time, in order, and counts its answers
 * in `state`; a statement whose answer nobody needs (`send`: a session
 * setting, an unlock) is posted without waiting, and its answer is read
 * (its error raised) by the next call, so it costs no round trip of its own.
 */
export class PgSyncClient {
  /** [0]: answers the worker has posted so far. */
  private readonly state = new Int32Array(new SharedArrayBuffer(4));
  /** Answers read so far (the answer awaited next is number answered + 1). */
  private answered = 0;
  /** Requests posted by `send` whose answers are not read yet. */
  private unread = 0;
  private posted = 0;

  /** Requests posted so far, of every kind (what was read from the server is known good until the next one). */
  get requests(): number {
    return this.posted;
  }
  private readonly port;
  private readonly worker: Worker;
  private closed = false;
  /** Where this client is connected (set once connected: errors after that can be a lost connection). */
  private server: PgServerCoordinates | undefined;
  /** Once the connection is gone, every later call says so at once. */
  private lost: ConnectionLostError | undefined;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const require = createRequire(import.meta.url);
    // The worker's own `require` is passed in by name: a bundler rewrites the identifier inside the function.
    this.worker = new Worker(`(${pgWorkerMain.toString()})(require)`, {
      eval: true,
      workerData: { port: port2, state: this.state, pgPath: require.resolve('pg'), copyPath: require.resolve('pg-copy-streams') },
      transferList: [port2],
      // The worker's own stdout/stderr are not the command's output.
      stdout: false,
      stderr: false,
    });
    // A process that forgets to close still exits (the server rolls back what was open).
    this.worker.unref();
    this.port.unref();
  }

  /** A connect posted by startConnect whose answer is not read yet (the first call reads it). */
  private pendingConnect: Record<string, unknown> | undefined;

  /**
   * Post the connect and return at once: the worker loads the driver and
   * connects while this thread goes on (parsing the project); the first
   * call waits for the answer, and a failure to connect is raised there.
   */
  startConnect(config: Record<string, unknown>, session: readonly string[]): void {
    this.port.postMessage({ op: 'connect', config, session: [...session], seq: ++this.posted });
    this.pendingConnect = config;
  }

  /** Read the answer of a connect posted earlier (nothing when none is pending). */
  private finishConnect(): void {
    const config = this.pendingConnect;
    if (config === undefined) return;
    this.pendingConnect = undefined;
    this.awaitAnswer();
    this.server = { host: config.host, port: config.port, database: config.database, user: config.user };
  }

  private call(request: Record<string, unknown>): unknown {
    this.ready();
    if (TRACE) return traced(request, () => this.postAndAwait(request));
    return this.postAndAwait(request);
  }

  /** Checks before posting: open, connected, not lost. */
  private ready(): void {
    if (this.closed) throw new PgError({ message: 'the connection is closed' });
    this.finishConnect();
    if (this.lost) throw new ConnectionLostError(this.lost.server, this.lost.reason, this.lost.code);
  }

  /** Post a request, read the answers of the sends before it (the first error among them is raised), then its own. */
  private postAndAwait(request: Record<string, unknown>): unknown {
    this.port.postMessage({ ...request, seq: ++this.posted });
    let earlier: unknown;
    for (; this.unread > 0; this.unread--) {
      try {
        this.awaitAnswer();
      } catch (err) {
        earlier ??= err;
      }
    }
    const value = this.awaitAnswer();
    if (earlier !== undefined) throw earlier;
    return value;
  }

  /**
   * Post a statement whose answer is not needed now (nothing of it is read:
   * a session setting, an unlock) and return at once; the next call reads its
   * answer first, and raises its error if it failed.
   */
  send(text: string, values?: readonly unknown[]): void {
    this.ready();
    const request = { op: 'query', text, values: values === undefined ? undefined : [...values], extended: values !== undefined };
    if (TRACE) traced({ ...request, op: 'send' }, () => undefined);
    this.port.postMessage({ ...request, seq: ++this.posted });
    this.unread++;
  }

  /** Block until the worker's next answer; its value, or its error raised. */
  private awaitAnswer(): unknown {
    const expected = ++this.answered;
    // Wait in slices: a worker that died cannot answer, and a slice lets that be noticed.
    for (;;) {
      const posted = Atomics.load(this.state, 0);
      if (posted - expected >= 0) break;
      const woke = Atomics.wait(this.state, 0, posted, 1000);
      if (woke === 'timed-out' && this.worker.threadId === -1) throw this.failure({ message: 'the PostgreSQL connection thread stopped' });
    }
    const message = this.answer() as { ok: boolean; value?: unknown; error?: Record<string, unknown>; seq?: number } | undefined;
    if (!message) throw this.failure({ message: 'no answer from the PostgreSQL connection thread' });
    if (message.seq !== expected) {
      // Never read as another request's answer: the connection is given up (closed, not kept or parked).
      this.lost = new ConnectionLostError(this.server ? pgServerLabel(this.server) : 'PostgreSQL', `the connection thread answered request ${String(message.seq)} where ${expected} was due`);
      throw this.lost;
    }
    if (!message.ok) throw this.failure(message.error ?? {});
    return message.value;
  }

  /**
   * The worker's answer once it said it answered. When several threads of
   * the process wait on connections at once (the node pool), a message can
   * reach the port a moment after the worker's notify: look again, a
   * millisecond at a time, for up to five seconds.
   */
  private answer(): unknown {
    for (let tries = 0; tries < 5000; tries++) {
      const received = receiveMessageOnPort(this.port);
      if (received) return received.message;
      if (this.worker.threadId === -1) return undefined;
      Atomics.wait(PAUSE, 0, 0, 1);
    }
    return undefined;
  }

  /** The error to raise: a lost connection says where it was; a refused privilege says as whom. */
  private failure(fields: Record<string, unknown>): Error {
    if (this.server === undefined) return new PgError(fields);
    if (isPgConnectionGone(fields)) {
      this.lost = new ConnectionLostError(pgServerLabel(this.server), String(fields.message ?? 'no reason given'), typeof fields.code === 'string' ? fields.code : undefined);
      return this.lost;
    }
    if (fields.code === '42501') return new PgError({ ...fields, message: `${String(fields.message)} (as ${pgUserLabel(this.server)})` });
    return new PgError(fields);
  }

  connect(config: Record<string, unknown>, session: readonly string[]): void {
    this.call({ op: 'connect', config, session: [...session] });
    this.server = { host: config.host, port: config.port, database: config.database, user: config.user };
  }

  /** One statement through the extended protocol (refuses several), or a script through the simple one. */
  query(text: string, values: readonly unknown[] | undefined, options: { readonly rowMode?: 'array'; readonly extended?: boolean } = {}): PgResult[] {
    return this.call({ op: 'query', text, values: values === undefined ? undefined : [...values], rowMode: options.rowMode, extended: options.extended ?? true }) as PgResult[];
  }

  script(text: string, rowMode?: 'array'): PgResult[] {
    return this.call({ op: 'script', text, rowMode }) as PgResult[];
  }

  /** COPY ... FROM STDIN with the data in `chunks` (text in the COPY's format). */
  copyIn(text: string, chunks: readonly string[]): number {
    const [result] = this.call({ op: 'copyIn', text, chunks: [...chunks] }) as PgResult[];
    return result?.rowCount ?? 0;
  }

  /**
   * A COPY ... FROM STDIN left open for copyWrite calls: each returns once its chunks are handed to
   * the connection (not when the server has taken them), so the caller prepares the next batch
   * meanwhile; an error of the server comes back from a later copyWrite or from copyEnd.
   */
  copyStart(text: string): void {
    this.call({ op: 'copyStart', text });
  }

  copyWrite(chunks: readonly string[]): void {
    this.call({ op: 'copyWrite', chunks: [...chunks] });
  }

  /** End the open COPY; the rows it loaded. */
  copyEnd(): number {
    const [result] = this.call({ op: 'copyEnd' }) as PgResult[];
    return result?.rowCount ?? 0;
  }

  /** Abandon the open COPY (CopyFail: the server discards it). */
  copyAbort(): void {
    this.call({ op: 'copyAbort' });
  }

  close(): void {
    if (this.closed) return;
    let clean = this.lost === undefined;
    try {
      this.call({ op: 'close' });
    } catch {
      // (the answers of earlier sends are read by that call too, failed or not)
      // closing a broken connection: nothing to report
      clean = false;
    }
    this.closed = true;
    // The thread (the driver loaded, its start paid) is parked for the next connection of the process;
    // the server's session is ended either way, so nothing holds the database.
    if (clean && this.worker.threadId !== -1 && PARKED.length < MAX_PARKED) PARKED.push(this);
    else void this.worker.terminate();
  }

  /**
   * Done with the connection, but keep it for the process's next open of the
   * same target (`key`: pgConnectionKey) for IDLE_MS: that open then costs no
   * TCP connect, password exchange or backend start (about 8 ms), and finds
   * the server's catalog caches warm. Whatever its last owner left behind is
   * undone first, posted without waiting (the next owner's first call reads
   * the answers): an open transaction is rolled back, and DISCARD ALL resets
   * session settings and role, drops temp tables, releases advisory locks and
   * prepared statements. A lost or unfinished connection is closed instead.
   */
  release(key: string): void {
    if (this.closed) return;
    // A node pool's thread ends with its run: nothing would take the connection, and its end would drop it unannounced.
    if (this.lost !== undefined || this.worker.threadId === -1 || !isMainThread) {
      this.close();
      return;
    }
    try {
      this.send('rollback');
      this.send('discard all');
    } catch {
      this.close();
      return;
    }
    const idle: IdleClient = { client: this, timer: setTimeout(() => this.expire(key, idle), IDLE_MS) };
    idle.timer.unref();
    // A process whose work is done ends its idle sessions properly (a Terminate, not a dropped socket) as it exits.
    if (!endsIdleOnExit) {
      endsIdleOnExit = true;
      process.once('beforeExit', closeIdlePostgresConnections);
    }
    const list = IDLE.get(key) ?? [];
    list.push(idle);
    IDLE.set(key, list);
  }

  /** The idle wait ran out: the connection is ended. */
  private expire(key: string, idle: IdleClient): void {
    const list = IDLE.get(key);
    const at = list?.indexOf(idle) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
    if (list?.length === 0) IDLE.delete(key);
    this.close();
  }

  /** A connection released for `key` and still idle, taken (its answers to the clean-up not read yet), or undefined. */
  static idle(key: string): PgSyncClient | undefined {
    const list = IDLE.get(key);
    const idle = list?.pop();
    if (list?.length === 0) IDLE.delete(key);
    if (!idle) return undefined;
    clearTimeout(idle.timer);
    return idle.client;
  }

  /** Whether a connection released for `key` is idle now. */
  static hasIdle(key: string): boolean {
    return (IDLE.get(key)?.length ?? 0) > 0;
  }

  /**
   * A client for a new connection: a parked thread when there is one (starting
   * a thread and loading the driver costs far more than connecting), else a new one.
   */
  static acquire(): PgSyncClient {
    const parked = PARKED.pop();
    if (!parked) return new PgSyncClient();
    parked.closed = false;
    parked.server = undefined;
    parked.lost = undefined;
    parked.pendingConnect = undefined;
    return parked;
  }
}

/** How long a released connection stays open, idle, for the process's next open of its target. */
const IDLE_MS = 10_000;

interface IdleClient {
  readonly client: PgSyncClient;
  readonly timer: NodeJS.Timeout;
}

let endsIdleOnExit = false;

/** Released connections, still open, by target (pgConnectionKey). */
const IDLE = new Map<string, IdleClient[]>();

/**
 * End every idle connection now (a test about to rename or drop a database
 * this process used; a process that wants its sessions gone before it exits).
 */
export function closeIdlePostgresConnections(): void {
  const all = [...IDLE.values()].flat();
  IDLE.clear();
  for (const idle of all) {
    clearTimeout(idle.timer);
    idle.client.close();
  }
}

/** Threads whose connection was closed cleanly, kept for the next connections of the process. */
const PARKED: PgSyncClient[] = [];
const MAX_PARKED = 4;

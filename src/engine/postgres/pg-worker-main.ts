/**
 * The body of the worker thread that owns one PostgreSQL connection (the
 * `pg` driver, asynchronous) for a PostgresConnection on the calling thread,
 * which blocks on Atomics.wait for each answer (see pg-sync-client.ts).
 *
 * This function is sent to the worker as its source text (`eval`), so the
 * engine works the same from the TypeScript sources, the ES modules and the
 * CommonJS bundle: it must not refer to anything outside itself. `load`
 * is the worker's own; the driver's paths arrive in workerData.
 */
export function pgWorkerMain(load: NodeJS.Require): void {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { workerData } = load('node:worker_threads') as typeof import('node:worker_threads');
  const data = workerData as { port: import('node:worker_threads').MessagePort; state: Int32Array; pgPath: string; copyPath: string };
  const pg = load(data.pgPath) as typeof import('pg');
  const port = data.port;
  rememberSaltedPasswords();
  const state = data.state;

  /**
   * SCRAM-SHA-256 derives the salted password with 4096 rounds of PBKDF2 on every connect (1-3 ms).
   * The server's salt and rounds for a role do not change between connections, so the result for
   * (password, salt, rounds) is kept for this thread's later connections (a parked thread connects
   * again; a backfill opens several): in memory only, as the password itself is.
   */
  function rememberSaltedPasswords(): void {
    let utils: { deriveKey?: (password: string, salt: Uint8Array, iterations: number) => Promise<ArrayBuffer> };
    try {
      utils = load(data.pgPath.replace(/index\.js$/, 'crypto/utils.js')) as typeof utils;
    } catch {
      return; // another layout of the driver: it derives the key each time, as it does by itself
    }
    const derive = utils.deriveKey;
    if (typeof derive !== 'function') return;
    const known = new Map<string, Promise<ArrayBuffer>>();
    utils.deriveKey = (password, salt, iterations) => {
      const key = `${iterations}\u0000${Buffer.from(salt).toString('base64')}\u0000${password}`;
      let derived = known.get(key);
      if (!derived) {
        derived = derive(password, salt, iterations);
        known.set(key, derived);
        derived.catch(() => known.delete(key));
      }
      return derived;
    };
  }

  // Values come back as the tool's SQLite side gives them: dates and times as their text, bigint and
  // numeric as numbers (exact to 15 significant digits, as SQLite's REAL), json as its text.
  const asText = (v: string): string => v;
  const asNumber = (v: string): number | string => {
    const n = Number(v);
    return Number.isFinite(n) ? n : v;
  };
  const types = {
    getTypeParser: (oid: number, format?: string): ((v: string) => unknown) => {
      switch (oid) {
        case 20: // int8
        case 1700: // numeric
          return asNumber;
        case 1082: // date
        case 1083: // time
        case 1114: // timestamp
        case 1184: // timestamptz
        case 1266: // timetz
        case 1186: // interval
        case 114: // json
        case 3802: // jsonb
          return asText;
        default:
          return pg.types.getTypeParser(oid, (format ?? 'text') as 'text');
      }
    },
  };

  let client: import('pg').Client | undefined;
  /** An error the connection raised between requests (the server went away): the next request reports it. */
  let broken: Error | undefined;

  interface Reply {
    ok: boolean;
    value?: unknown;
    error?: Record<string, unknown>;
    /** The request it answers (its number, as the calling thread posted it). */
    seq: number;
  }

  const errorOf = (err: unknown): Record<string, unknown> => {
    const e = err as Record<string, unknown> & { message?: string };
    const out: Record<string, unknown> = { message: e?.message ?? String(err) };
    for (const key of ['code', 'detail', 'hint', 'position', 'where', 'severity', 'schema', 'table', 'column', 'constraint', 'routine', 'errno', 'syscall', 'address', 'port']) {
      if (e && e[key] !== undefined) out[key] = e[key];
    }
    return out;
  };

  /** An answer posted, and counted in `state` (the calling thread waits for the count to reach its request's). */
  // The request being handled, and whether it was answered already (by an exception raised outside it).
  let current = -1;
  let answeredCurrent = false;
  const reply = (r: Reply): void => {
    if (r.seq === current) {
      if (answeredCurrent) return;
      answeredCurrent = true;
    }
    port.postMessage(r);
    Atomics.add(state, 0, 1);
    Atomics.notify(state, 0);
  };

  type Request =
    | { op: 'connect'; config: Record<string, unknown>; session: string[] }
    | { op: 'query'; text: string; values?: unknown[]; rowMode?: 'array'; extended: boolean }
    | { op: 'script'; text: string; rowMode?: 'array' }
    | { op: 'copyIn'; text: string; chunks: string[] }
    | { op: 'copyStart'; text: string }
    | { op: 'copyWrite'; chunks: string[] }
    | { op: 'copyEnd' }
    | { op: 'copyAbort' }
    | { op: 'close' };

  /**
   * A COPY ... FROM STDIN kept open across requests (copyStart, copyWrite..., copyEnd): a write is
   * answered as soon as its data is handed to the stream, so the calling thread reads the next batch
   * while the server takes this one. An error the server raised meanwhile is the answer to the next
   * write or to the end. Anything else sent on the connection while it is open aborts it first.
   */
  interface OpenCopy {
    stream: import('pg-copy-streams').CopyStreamQuery;
    failed?: Error;
    /** Settles when the stream has room again (or failed). */
    room: Promise<void>;
    /** Settles when the server acknowledged the end (or the COPY failed). */
    settled: Promise<void>;
  }
  let copy: OpenCopy | undefined;

  const openCopy = (text: string): void => {
    const { from } = load(data.copyPath) as typeof import('pg-copy-streams');
    const stream = client!.query(from(text));
    const open: OpenCopy = { stream, room: Promise.resolve(), settled: Promise.resolve() };
    open.settled = new Promise<void>((resolve) => {
      stream.on('finish', () => resolve());
      stream.on('error', (err: Error) => {
        open.failed ??= err;
        resolve();
      });
    });
    copy = open;
  };

  const copyFailure = (open: OpenCopy): Error | undefined => {
    if (!open.failed) return undefined;
    copy = undefined;
    return open.failed;
  };

  const abortCopy = async (): Promise<void> => {
    const open = copy;
    if (!open) return;
    copy = undefined;
    // destroy() sends CopyFail: the server ends the COPY with an error, which is expected here.
    if (!open.failed) open.stream.destroy(new Error('COPY aborted by the client'));
    await open.settled;
  };

  const shape = (res: import('pg').QueryResult | import('pg').QueryResult[]): unknown => {
    const one = (r: import('pg').QueryResult) => ({
      rows: r.rows,
      fields: (r.fields ?? []).map((f) => f.name),
      types: (r.fields ?? []).map((f) => [f.dataTypeID, f.dataTypeModifier]),
      rowCount: r.rowCount ?? 0,
      command: r.command,
    });
    return Array.isArray(res) ? res.map(one) : [one(res)];
  };

  async function handle(req: Request): Promise<unknown> {
    if (req.op === 'connect') {
      // A parked thread connects again: nothing of its last connection carries over.
      broken = undefined;
      copy = undefined;
      const fresh = new pg.Client({ ...req.config, types } as import('pg').ClientConfig);
      client = fresh;
      fresh.on('error', (err) => {
        if (client === fresh) broken = err;
      });
      await client.connect();
      for (const sql of req.session) await client.query(sql);
      return null;
    }
    if (req.op === 'close') {
      const c = client;
      client = undefined;
      // Answered once the Terminate is sent, not when the server's session has ended (its backend
      // clears the session's temp tables first, several milliseconds): nothing is open by then (a run
      // commits or rolls back before it closes), and the server ends the session either way.
      if (c) void c.end().catch(() => undefined);
      return null;
    }
    if (!client) throw new Error('the connection is closed');
    if (broken) throw broken;
    if (req.op === 'copyStart') {
      await abortCopy();
      openCopy(req.text);
      return null;
    }
    if (req.op === 'copyWrite' || req.op === 'copyEnd') {
      const open = copy;
      if (!open) throw new Error('no COPY is open on this connection');
      await open.room;
      const failed = copyFailure(open);
      if (failed) throw failed;
      if (req.op === 'copyWrite') {
        let roomy = true;
        for (const chunk of req.chunks) roomy = open.stream.write(chunk);
        if (!roomy) {
          open.room = new Promise<void>((resolve) => {
            open.stream.once('drain', () => resolve());
            void open.settled.then(() => resolve());
          });
        }
        return null;
      }
      open.stream.end();
      await open.settled;
      copy = undefined;
      if (open.failed) throw open.failed;
      return [{ rows: [], fields: [], rowCount: (open.stream as unknown as { rowCount: number }).rowCount ?? 0, command: 'COPY' }];
    }
    if (req.op === 'copyAbort') {
      await abortCopy();
      return null;
    }
    // A statement while a COPY is open (a rollback after a failed load): the COPY goes first.
    await abortCopy();
    if (req.op === 'query') {
      const res = await client.query({ text: req.text, values: req.values, rowMode: req.rowMode, ...(req.extended ? { queryMode: 'extended' } : {}) } as import('pg').QueryConfig);
      return shape(res);
    }
    if (req.op === 'script') {
      return shape(await client.query({ text: req.text, rowMode: req.rowMode } as import('pg').QueryConfig));
    }
    // COPY ... FROM STDIN: the data streamed in the chunks given.
    const { from } = load(data.copyPath) as typeof import('pg-copy-streams');
    const stream = client.query(from(req.text));
    await new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('finish', () => resolve());
      let i = 0;
      const writeMore = (): void => {
        while (i < req.chunks.length) {
          const ok = stream.write(req.chunks[i++]);
          if (!ok) {
            stream.once('drain', writeMore);
            return;
          }
        }
        stream.end();
      };
      writeMore();
    });
    return [{ rows: [], fields: [], rowCount: (stream as unknown as { rowCount: number }).rowCount ?? 0, command: 'COPY' }];
  }

  // One request at a time, in the order posted: each gets exactly one answer, carrying its number, so
  // answers are matched to requests by their count (and the calling thread checks the number).
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (req: Request & { seq: number }) => {
    queue = queue.then(() => {
      current = req.seq;
      answeredCurrent = false;
      return handle(req).then(
        (value) => reply({ ok: true, value, seq: req.seq }),
        (err) => reply({ ok: false, error: errorOf(err), seq: req.seq }),
      );
    });
  });
  // An exception raised outside a request's own promise (a stream's late error): it answers the request
  // in hand if that is not answered yet, else it fails the next one. Never an answer of its own, which
  // would put every later answer one request late.
  process.on('uncaughtException', (err) => {
    // pg-copy-streams forgets its connection when the server ends a COPY with an error, and a flush it had
    // queued for the socket's next 'drain' then throws (reading `stream` of null): the COPY's own error,
    // from its stream, is what the load reports; this one says nothing more.
    if (err instanceof Error && /pg-copy-streams/.test(err.stack ?? '')) return;
    if (current >= 0 && !answeredCurrent) reply({ ok: false, error: errorOf(err), seq: current });
    else broken ??= err instanceof Error ? err : new Error(String(err));
  });
}

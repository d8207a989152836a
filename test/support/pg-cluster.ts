import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, writeFileSync, accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for the test suite: initdb into a fresh temp
 * folder, a free port on 127.0.0.1 only (its unix socket inside that folder),
 * durability off for speed, a password-authenticated superuser and an empty
 * `mini_dbt_test` database; stopped (immediate) and removed at the end.
 *
 * The server is a direct child of the process that starts it (the vitest main
 * process): not daemonized through `pg_ctl start`, so its exit is reaped here
 * and nothing is left behind as a zombie (this machine's pid 1 reaps none).
 * As root, initdb and postgres (which refuse to run as root) run as the
 * `postgres` system user through spawn's uid/gid.
 */

/** Where a test connects: TCP on 127.0.0.1 with a password (scram-sha-256). */
export interface PgServer {
  host: string;
  port: number;
  /** A superuser; its password is checked (127.0.0.1 uses scram-sha-256 in pg_hba). */
  user: string;
  password: string;
  /** An empty database made at start; tests make their own schemas or databases. */
  database: string;
  /** The server's version, e.g. "15.14". */
  version: string;
}

export interface PgCluster extends PgServer {
  /** The temp folder: data directory `data/`, unix socket, `postgres.log`. */
  dir: string;
  /** Milliseconds for initdb, and for the server to start and accept connections. */
  timings: { initdbMs: number; startMs: number };
  /** Immediate shutdown (what `pg_ctl stop -m immediate` does), then the folder is removed. Idempotent. */
  stop(): Promise<void>;
}

/** What the globalSetup hands the tests (`inject('miniDbtPg')`). */
export type PgTestEnvironment = { available: true; server: PgServer } | { available: false; reason: string };

/** The environment variables the globalSetup sets for the workers and the CLIs they spawn. */
export const PG_ENV = {
  host: 'MINI_DBT_TEST_PG_HOST',
  port: 'MINI_DBT_TEST_PG_PORT',
  user: 'MINI_DBT_TEST_PG_USER',
  password: 'MINI_DBT_TEST_PG_PASSWORD',
  database: 'MINI_DBT_TEST_PG_DATABASE',
  unavailable: 'MINI_DBT_TEST_PG_UNAVAILABLE',
} as const;

export const PG_TEST_USER = 'mini_dbt';
export const PG_TEST_PASSWORD = 'mini_dbt_pw';
export const PG_TEST_DATABASE = 'mini_dbt_test';

/** The folder holding initdb and postgres: the highest /usr/lib/postgresql/<version>/bin, else PATH; undefined if none. */
export function findPgBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => /^\d+(\.\d+)?$/.test(name) && isExecutable(join(root, name, 'bin', 'initdb')) && isExecutable(join(root, name, 'bin', 'postgres')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, 'initdb')) && isExecutable(join(dir, 'postgres'))) return dir;
  }
  return undefined;
}

/** Why no cluster can be started here, as one sentence; undefined when the binaries and a user to run them are present (starting may still fail: startPgCluster's error says why). */
export function pgUnavailableReason(): string | undefined {
  const bin = findPgBinDir();
  if (!bin) {
    return 'PostgreSQL is not installed: no initdb and postgres in /usr/lib/postgresql/*/bin or on PATH (install it with: apt-get install -y postgresql)';
  }
  if (process.getuid?.() === 0 && !systemUser('postgres')) {
    return 'running as root and there is no `postgres` system user to run initdb and postgres as (they refuse to run as root)';
  }
  return undefined;
}

/**
 * Start a throwaway cluster. Rejects with an Error whose message says why (initdb or the server failed, with its log's tail).
 * `settings`: server settings passed at start (`-c name=value`) on top of the suite's own (the bench's load server's).
 */
export async function startPgCluster(options: { log?: (line: string) => void; settings?: Readonly<Record<string, string>> } = {}): Promise<PgCluster> {
  const reason = pgUnavailableReason();
  if (reason) throw new Error(reason);
  const bin = findPgBinDir()!;
  const owner = process.getuid?.() === 0 ? systemUser('postgres')! : undefined;

  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-pg-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const dataDir = join(dir, 'data');
    const pwFile = join(dir, 'pwfile');
    writeFileSync(pwFile, `${PG_TEST_PASSWORD}\n`, { mode: 0o600 });
    if (owner) chownSync(pwFile, owner.uid, owner.gid);

    const initdbStarted = performance.now();
    await run(join(bin, 'initdb'), [
      '-D', dataDir,
      '-U', PG_TEST_USER,
      `--pwfile=${pwFile}`,
      // 127.0.0.1 checks the password (tests check wrong-password errors); the socket in the temp folder trusts.
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      '-E', 'UTF8',
      // Byte-order collation: deterministic, and SQLite's default (BINARY).
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ], dir, owner, 'initdb');
    const initdbMs = performance.now() - initdbStarted;
    rmSync(pwFile, { force: true });

    const startStarted = performance.now();
    const { child, port } = await startServer(join(bin, 'postgres'), dataDir, dir, owner, options.settings ?? {});
    const startMs = performance.now() - startStarted;

    let stopped: Promise<void> | undefined;
    const onExit = () => {
      // The run is ending without teardown (a crash, Ctrl-C): at least the server and its folder go.
      try { child.kill('SIGQUIT'); } catch { /* already gone */ }
      removeDir();
    };
    process.once('exit', onExit);
    const stop = () => (stopped ??= (async () => {
      process.removeListener('exit', onExit);
      await stopServer(child);
      removeDir();
    })());

    try {
      const admin = new pg.Client({ host: '127.0.0.1', port, user: PG_TEST_USER, password: PG_TEST_PASSWORD, database: 'postgres' });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${PG_TEST_DATABASE} TEMPLATE template0`);
        const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
        const version = rows[0].server_version.split(' ')[0];
        options.log?.(`PostgreSQL ${version} on 127.0.0.1:${port} (${dir}): initdb ${Math.round(initdbMs)} ms, start ${Math.round(startMs)} ms`);
        return { host: '127.0.0.1', port, user: PG_TEST_USER, password: PG_TEST_PASSWORD, database: PG_TEST_DATABASE, version, dir, timings: { initdbMs, startMs }, stop };
      } finally {
        await admin.end();
      }
    } catch (error) {
      await stop();
      throw error;
    }
  } catch (error) {
    removeDir();
    throw error;
  }
}

/** The server process, started and accepting connections; retried on another port if the free one was taken meanwhile. */
async function startServer(postgres: string, dataDir: string, socketDir: string, owner: { uid: number; gid: number } | undefined, settings: Readonly<Record<string, string>>): Promise<{ child: ChildProcess; port: number }> {
  const logFile = join(socketDir, 'postgres.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const logFd = openSync(logFile, 'a');
    if (owner) chownSync(logFile, owner.uid, owner.gid);
    const child = spawn(postgres, [
      '-D', dataDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${socketDir}`,
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      '-c', 'full_page_writes=off',
      '-c', 'max_connections=100',
      '-c', 'TimeZone=UTC',
      '-c', 'log_min_messages=warning',
      '-c', 'logging_collector=off',
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ], { stdio: ['ignore', logFd, logFd], ...(owner ?? {}), cwd: socketDir, env: serverEnv() });
    closeSync(logFd);
    let exited: string | undefined;
    child.once('exit', (code, signal) => { exited = `exited (${signal ?? `code ${code}`})`; });
    child.once('error', (error) => { exited = `could not be started: ${error.message}`; });

    const deadline = Date.now() + 30_000;
    for (;;) {
      if (exited) break;
      if (await accepts(port)) return { child, port };
      if (Date.now() > deadline) {
        await stopServer(child);
        throw new Error(`PostgreSQL did not accept connections on 127.0.0.1:${port} within 30 s; its log:\n${tail(logFile)}`);
      }
      await sleep(25);
    }
    const log = tail(logFile);
    if (attempt < 3 && /could not bind|Address already in use/i.test(log)) continue;
    throw new Error(`PostgreSQL ${exited} at start; its log:\n${log}`);
  }
}

/** Immediate shutdown: SIGQUIT to the postmaster (its backends quit with it), then wait for it to exit; SIGKILL after 10 s. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGQUIT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function accepts(port: number): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: PG_TEST_USER, password: PG_TEST_PASSWORD, database: 'postgres', connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    await client.end().catch(() => {});
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(file: string, args: string[], cwd: string, owner: { uid: number; gid: number } | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...(owner ?? {}), cwd, env: serverEnv(), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${what} failed (${error.message.split('\n')[0]}): ${`${stderr}\n${stdout}`.trim().split('\n').slice(-15).join('\n')}`));
      else resolve();
    });
  });
}

/** No PG* variables of the caller's (PGDATA, PGPORT...) reach initdb or the server; a locale that exists everywhere. */
function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('PG') && !key.startsWith('LC_') && key !== 'LANG') env[key] = value;
  env.LANG = 'C';
  env.LC_ALL = 'C';
  return env;
}

function systemUser(name: string): { uid: number; gid: number } | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const fields = line.split(':');
      if (fields[0] === name && fields.length >= 4) return { uid: Number(fields[2]), gid: Number(fields[3]) };
    }
  } catch { /* no /etc/passwd */ }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim().split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

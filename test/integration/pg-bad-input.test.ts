import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli, runCliAsync, type CliResult } from '../support/run-cli.js';
import { describePg, freshPgDatabase, pgProfilesYml, withPgClient, type PgTestTarget } from '../support/pg-test-database.js';

/**
 * Issue 17, "Bad input" on PostgreSQL: an unreachable server, a wrong
 * password, a missing database, a schema the user may not write, a connection
 * dropped in the middle of a publish, a broken profile. Each is one clear
 * message (host, port, database and user named; never the password; no
 * stack), exit 2 (1 for a node that failed), and the warehouse as it was.
 */

const PROJECT = {
  'project.yml': 'name: badpg\nprofile: badpg\n',
  // `tail` lets one test read from a table the user may not see.
  'models/fast.sql': "{{ config(materialized='table') }}\nselect 1 as id, 'first' as label{{ var('tail', '') }}\n",
  // A publish that takes as long as `sleep` says: time to end its session from outside.
  'models/slow.sql': "{{ config(materialized='table') }}\nselect id, label || '{{ var(\"v\", \"a\") }}' as label from {{ ref('fast') }} cross join (select pg_sleep({{ var('sleep', 0) }})) as s\n",
};

/** What a broken message would show: a stack frame, or the tool owning up to a bug. */
function expectNoStack(out: CliResult): void {
  expect(out.stderr + out.stdout).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);
  expect(out.stderr + out.stdout).not.toContain('Internal error');
}

/** Every file under `dir` (target/*.json, logs/, compiled SQL...) but the profile itself. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => join(dir, p))
    .filter((p) => statSync(p).isFile() && !p.endsWith('profiles.yml'));
}

/** A port nothing listens on: one the system just handed out and took back. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('a broken postgres profile is refused at its file and line', () => {
  const output = (keys: Record<string, string | number>) => `badpg:\n  target: pg\n  outputs:\n    pg:\n${Object.entries(keys).map(([k, v]) => `      ${k}: ${typeof v === 'string' ? JSON.stringify(v) : v}\n`).join('')}`;
  const good = { type: 'postgres', host: '127.0.0.1', port: 5432, user: 'someone', password: 'pw-not-shown-4411', dbname: 'db', schema: 'analytics', threads: 1 };
  const refuse = (keys: Record<string, string | number>) => {
    const dir = writeProject({ ...PROJECT, 'profiles.yml': output(keys) });
    const out = runCli(['build', '--project-dir', dir, '--profiles-dir', dir]);
    expect(out.code, out.stdout + out.stderr).toBe(2);
    expectNoStack(out);
    expect(out.stderr + out.stdout).not.toContain('pw-not-shown-4411');
    return { dir, message: out.stderr };
  };
  const without = (key: string) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== key));

  it('names a missing required key (port, dbname, host, user, password) at the output', () => {
    for (const key of ['port', 'dbname', 'host', 'user', 'password']) {
      const { dir, message } = refuse(without(key));
      expect(message).toContain(`${join(dir, 'profiles.yml')}:5: target 'pg' of profile 'badpg' (type postgres) needs \`${key}\``);
    }
  });

  it('points at a misspelt required key rather than at the output', () => {
    const renamed = (from: string, to: string) => Object.fromEntries(Object.entries(good).map(([k, v]) => [k === from ? to : k, v]));
    const { dir, message } = refuse(renamed('dbname', 'dbame'));
    expect(message).toContain(`${join(dir, 'profiles.yml')}:10: target 'pg' of profile 'badpg' (type postgres) needs \`dbname\`; it has \`dbame\`, which dbt-postgres does not know`);
    expect(message).toContain('hint: rename it to dbname');
    expect(refuse(renamed('port', 'prot')).message).toMatch(/profiles\.yml:7: .*needs `port`; it has `prot`/);
  });

  it('names a port that is not a number, or out of range, at its line', () => {
    const { dir, message } = refuse({ ...good, port: 'fivefour' });
    expect(message).toContain(`${join(dir, 'profiles.yml')}:7: target 'pg' of profile 'badpg': port must be a whole number of at least 1, not "fivefour"`);
    expect(refuse({ ...good, port: 70000 }).message).toMatch(/profiles\.yml:7: .*port must be at most 65535, not 70000/);
    expect(refuse({ ...good, port: '0x10' }).message).toMatch(/profiles\.yml:7: .*port must be a whole number/);
  });

  it('names an unknown sslmode, a bad connect_timeout and an empty host at their lines', () => {
    expect(refuse({ ...good, sslmode: 'sometimes' }).message).toMatch(/profiles\.yml:13: target 'pg' of profile 'badpg': sslmode 'sometimes' is not one of disable, allow, prefer, require, verify-ca, verify-full/);
    expect(refuse({ ...good, connect_timeout: 'soon' }).message).toMatch(/profiles\.yml:13: .*connect_timeout must be a whole number of at least 0, not "soon"/);
    expect(refuse({ ...good, host: '' }).message).toMatch(/profiles\.yml:6: .*host cannot be empty/);
  });

  it('names an env_var() the password needs that is not set', () => {
    const { message } = refuse({ ...good, password: "{{ env_var('MINI_DBT_H5_UNSET_PW') }}" });
    expect(message).toMatch(/profiles\.yml:9: .*Env var required but not provided: 'MINI_DBT_H5_UNSET_PW'/);
  });

  it('an unreachable server: host, port, database and user named, exit 2, no password', async () => {
    const port = await closedPort();
    const dir = writeProject({ ...PROJECT, 'profiles.yml': output({ ...good, port }) });
    const out = runCli(['build', '--project-dir', dir, '--profiles-dir', dir]);
    expect(out.code, out.stdout + out.stderr).toBe(2);
    expectNoStack(out);
    expect(out.stderr).toContain(`Error: cannot connect to PostgreSQL at 127.0.0.1:${port}, database 'db', user 'someone': the server refused the connection (nothing listens there)`);
    expect(out.stderr).toContain('hint: start the server, or check host and port in the profile');
    expect(out.stderr.trim().split('\n')).toHaveLength(2);
    for (const file of filesUnder(dir)) expect(readFileSync(file, 'utf8'), file).not.toContain('pw-not-shown-4411');
  });
});

describePg('bad input on a real PostgreSQL server', () => {
  const tag = `${process.pid}`;
  /** A login of its own, whose password only env_var() gives: it must never show. */
  const owner = { user: `h5_owner_${tag}`, password: `Owner-Secret-${tag}-x7Q` };
  /** A login that may not create schemas in the database, nor write in `locked`. */
  const weak = { user: `h5_weak_${tag}`, password: `Weak-Secret-${tag}-k2W` };
  const PW_VAR = 'MINI_DBT_H5_OWNER_PW';
  let place: PgTestTarget;
  const env = { [PW_VAR]: owner.password };

  /** A project dir with a profile for `who` building into `schema`; the password through env_var(), or as given. */
  const projectAs = (who: { user: string; password: string }, schema: string, extra: Record<string, string | number> = {}, passwordEnvVar?: string): string => {
    const dir = writeProject(PROJECT);
    writeFileSync(join(dir, 'profiles.yml'), pgProfilesYml({ ...place, user: who.user, password: who.password, schema }, { profile: 'badpg', extra, ...(passwordEnvVar ? { passwordEnvVar } : {}) }));
    return dir;
  };
  const cli = (dir: string, ...args: string[]) => runCli([...args, '--project-dir', dir, '--profiles-dir', dir], { env });
  const tables = (schema: string) => withPgClient(async (c) => (await c.query('select tablename from pg_tables where schemaname = $1 order by 1', [schema])).rows.map((r) => r.tablename as string), place);
  const rowsOf = (relation: string) => withPgClient(async (c) => (await c.query(`select * from ${relation} order by 1`)).rows, place);
  const secretsIn = (out: CliResult, dir: string) => {
    const texts = [out.stdout, out.stderr, ...filesUnder(dir).map((f) => readFileSync(f, 'utf8'))];
    return texts.filter((t) => t.includes(owner.password) || t.includes(weak.password));
  };

  beforeAll(async () => {
    place = await freshPgDatabase('badinput');
    await withPgClient(async (c) => {
      await c.query(`create role ${owner.user} login password '${owner.password}'`);
      await c.query(`create role ${weak.user} login password '${weak.password}'`);
      await c.query(`alter database ${place.database} owner to ${owner.user}`);
    }, place);
    await withPgClient(async (c) => {
      // `locked`: the weak login may look in but not create; `private_stuff.secret`: it sees the table but may not read it.
      await c.query('create schema locked');
      await c.query(`grant usage on schema locked to ${weak.user}`);
      await c.query('create schema private_stuff');
      await c.query("create table private_stuff.secret as select 'hush' as word");
      await c.query(`grant usage on schema private_stuff to ${weak.user}`);
      await c.query(`alter schema public owner to ${owner.user}`);
    }, place);
  });
  afterAll(async () => {
    if (!place) return;
    await place.drop();
    await withPgClient(async (c) => {
      await c.query(`drop role if exists ${owner.user}`);
      await c.query(`drop role if exists ${weak.user}`);
    }, { ...place, database: 'postgres' });
  });

  it('builds with the password from env_var(), which shows nowhere: output, target/*.json, logs', () => {
    const dir = projectAs(owner, 'analytics', {}, PW_VAR);
    expect(readFileSync(join(dir, 'profiles.yml'), 'utf8')).not.toContain(owner.password);
    const out = cli(dir, 'build');
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toMatch(/PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2/);
    for (const args of [['debug'], ['ls', '--debug'], ['compile', '--log-format', 'json']]) {
      const more = cli(dir, ...args);
      expect(more.code, more.stdout + more.stderr).toBe(0);
      expect(secretsIn(more, dir)).toEqual([]);
    }
    expect(filesUnder(dir).some((f) => f.endsWith('run_results.json'))).toBe(true);
    expect(secretsIn(out, dir)).toEqual([]);
  });

  it('a wrong password: exit 2, the server, database and user named, neither password shown', () => {
    const dir = projectAs({ user: owner.user, password: 'Not-The-Password-5150' }, 'analytics');
    const out = cli(dir, 'build', '--debug');
    expect(out.code, out.stdout + out.stderr).toBe(2);
    expectNoStack({ ...out, stderr: out.stderr.replace(/^ProjectError[\s\S]*$/m, '') });
    expect(out.stderr).toContain(`Error: cannot connect to PostgreSQL at ${place.host}:${place.port}, database '${place.database}', user '${owner.user}': the server refused the password or the user (password authentication failed for user "${owner.user}")`);
    expect(out.stdout + out.stderr).not.toContain('Not-The-Password-5150');
    expect(secretsIn(out, dir)).toEqual([]);
  });

  it('a database that does not exist: exit 2, named, with the fix', () => {
    const dir = projectAs(owner, 'analytics', { dbname: `nosuch_${tag}` }, PW_VAR);
    const out = cli(dir, 'build');
    expect(out.code, out.stdout + out.stderr).toBe(2);
    expectNoStack(out);
    expect(out.stderr).toContain(`Error: cannot connect to PostgreSQL at ${place.host}:${place.port}, database 'nosuch_${tag}', user '${owner.user}': database 'nosuch_${tag}' does not exist`);
    expect(out.stderr).toContain(`hint: create it (createdb nosuch_${tag}), or check dbname in the profile`);
  });

  it('a schema the user may not create in: exit 2, what to grant, nothing written', async () => {
    const dir = projectAs(weak, 'locked');
    const out = cli(dir, 'build');
    expect(out.code, out.stdout + out.stderr).toBe(2);
    expectNoStack(out);
    expect(out.stderr).toContain(`Error: permission denied on PostgreSQL at ${place.host}:${place.port}, database '${place.database}', user '${weak.user}': permission denied for schema locked`);
    expect(out.stderr).toContain(`hint: grant usage, create on schema locked to "${weak.user}"`);
    expect(await tables('locked')).toEqual([]);
    expect(secretsIn(out, dir)).toEqual([]);
  });

  it('a target schema the user may not create (no CREATE on the database): exit 2, at connect', async () => {
    const dir = projectAs(weak, 'weak_missing');
    const out = cli(dir, 'build');
    expect(out.code, out.stdout + out.stderr).toBe(2);
    expectNoStack(out);
    expect(out.stderr).toContain(`Error: cannot use PostgreSQL at ${place.host}:${place.port}, database '${place.database}', user '${weak.user}': permission denied (permission denied for database ${place.database})`);
    expect(out.stderr).toContain(`create schema <schema> authorization "${weak.user}"`);
    const schemas = await withPgClient(async (c) => (await c.query("select nspname from pg_namespace where nspname = 'weak_missing'")).rows, place);
    expect(schemas).toEqual([]);
  });

  it('CREATE on the schema alone is enough (no CREATE on the database); a table it may not read fails that node, exit 1', async () => {
    await withPgClient((c) => c.query(`grant create on schema locked to ${weak.user}`), place);
    const dir = projectAs(weak, 'locked');
    const ok = cli(dir, 'build');
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(await rowsOf('locked.slow')).toEqual([{ id: 1, label: 'firsta' }]);
    const out = cli(dir, 'run', '--select', 'fast', '--vars', '{"tail": " from private_stuff.secret"}');
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expectNoStack(out);
    expect(out.stdout).toContain(`permission denied for table secret (as user '${weak.user}' on PostgreSQL at ${place.host}:${place.port}, database '${place.database}')`);
    expect(await rowsOf('locked.fast')).toEqual([{ id: 1, label: 'first' }]);
  });

  it('a connection dropped in the middle of a publish: the node fails (exit 1) saying so, the table is as it was', async () => {
    const dir = projectAs(owner, 'analytics', {}, PW_VAR);
    expect(cli(dir, 'build').code).toBe(0);
    const before = await rowsOf('analytics.slow');
    const tablesBefore = await tables('analytics');
    expect(before).toEqual([{ id: 1, label: 'firsta' }]);

    const running = runCliAsync(['run', '--vars', '{v: b, sleep: 30}', '--project-dir', dir, '--profiles-dir', dir], { env });
    // Wait for the slow publish to be on the server, then end its session as an administrator would.
    let ended = false;
    for (let i = 0; i < 200 && !ended; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ended = await withPgClient(async (c) => {
        const r = await c.query(
          "select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and usename = $2 and pid <> pg_backend_pid() and query like '%pg_sleep%'",
          [place.database, owner.user],
        );
        return r.rows.some((row) => row.ended === true);
      }, place);
    }
    expect(ended).toBe(true);
    const out = await running;
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expectNoStack(out);
    expect(out.stdout).toContain('ERROR creating sql table model analytics.slow');
    expect(out.stdout).toContain(`the connection to PostgreSQL at ${place.host}:${place.port} (database '${place.database}', user '${owner.user}') was lost (terminating connection due to administrator command)`);
    // The previous table exactly as it was; no staging table left behind.
    expect(await rowsOf('analytics.slow')).toEqual(before);
    expect(await tables('analytics')).toEqual(tablesBefore);
    const results = JSON.parse(readFileSync(join(dir, 'target', 'run_results.json'), 'utf8')) as { results: { unique_id: string; status: string; message: string }[] };
    expect(results.results.find((r) => r.unique_id === 'model.badpg.slow')).toMatchObject({ status: 'error', message: expect.stringContaining('was lost') });
    expect(secretsIn(out, dir)).toEqual([]);

    // The next run works and publishes.
    const again = cli(dir, 'run', '--vars', '{v: c}');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(await rowsOf('analytics.slow')).toEqual([{ id: 1, label: 'firstc' }]);
  }, 60_000);
});

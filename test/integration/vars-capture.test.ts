import Database from 'better-sqlite3';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSession, run, withVars } from '../../src/index.js';
import { JinjaEnvironment } from '../../src/compile/jinja-environment.js';
import type { RenderState } from '../../src/compile/render-state.js';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * A model whose config() reads var() follows the var, in one process (a
 * session reused under other --vars, as backfill and replay do) and from the
 * CLI through the parse cache; models that read no var are not captured again.
 */
const FILES = {
  'project.yml': 'name: p\n',
  'models/m.sql': "{{ config(materialized=var('mat', 'table')) }}select 1 as x",
  'models/plain.sql': "{{ config(materialized='table') }}select 2 as y",
  'models/downstream.sql': "select * from {{ ref(var('upstream', 'plain')) }}",
};

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** 'table' or 'view': what the warehouse holds under `name`. */
function kind(name: string): string | undefined {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return (db.prepare('select type from sqlite_master where name = ?').get(name) as { type: string } | undefined)?.type;
  } finally {
    db.close();
  }
}

/** The model files pass 1 captures (renders with execute false, or captures statically: static-capture.ts) while `fn` runs; pass 2 renders are not counted. */
async function captured<T>(fn: () => T | Promise<T>): Promise<{ result: T; files: string[] }> {
  const spy = vi.spyOn(JinjaEnvironment.prototype, 'render');
  const statically = vi.spyOn(JinjaEnvironment.prototype, 'captureStatically');
  try {
    const result = await fn();
    const files = spy.mock.calls.filter((call) => (call[2] as RenderState).execute === false).map((call) => call[0] as string);
    return { result, files: [...new Set([...files, ...statically.mock.calls.map((call) => call[0])])].sort() };
  } finally {
    spy.mockRestore();
    statically.mockRestore();
  }
}

describe('a capture that reads var() follows the var', () => {
  it('one session under other --vars (withVars, run({session, vars})): the right relation kind each time; only the model reading the var is captured again', async () => {
    dir = writeProject(FILES);
    const session = loadSession({ projectDir: dir });
    expect(session.manifest.models.get('m')?.config.materialized).toBe('table');

    const asView = await captured(() => run({ session, vars: { mat: 'view' } }));
    expect(asView.result.exitCode).toBe(0);
    expect(asView.files).toEqual(['models/m.sql']);
    expect(kind('m')).toBe('view');
    expect(kind('plain')).toBe('table');

    const asTable = await captured(() => run({ session, vars: { mat: 'table' } }));
    expect(asTable.result.exitCode).toBe(0);
    expect(asTable.files).toEqual(['models/m.sql']);
    expect(kind('m')).toBe('table');

    // A var no capture read: nothing captured again, the same models and graph.
    const unrelated = await captured(() => withVars(session, { as_of: '2026-09-01' }));
    expect(unrelated.files).toEqual([]);
    expect(unrelated.result.manifest.models).toBe(session.manifest.models);
    expect(unrelated.result.graph).toBe(session.graph);
  });

  it('a var read only in the SQL (as as_of is): withVars renders that model once, finds the same capture, and keeps the models and graph', async () => {
    dir = writeProject({ ...FILES, 'models/nightly.sql': "{{ config(materialized='table') }}select '{{ var('as_of', 'none') }}' as as_of" });
    const session = loadSession({ projectDir: dir });
    const night = await captured(() => withVars(session, { as_of: '2026-09-02' }));
    expect(night.files).toEqual(['models/nightly.sql']);
    expect(night.result.manifest.models).toBe(session.manifest.models);
    expect(night.result.graph).toBe(session.graph);
    expect(night.result.manifest.vars.as_of).toBe('2026-09-02');
    const built = await run({ session: night.result, select: ['nightly'] });
    expect(built.results[0]?.compiledCode).toBe("select '2026-09-02' as as_of");
    // and the next night from that session still follows its var
    const next = withVars(night.result, { as_of: '2026-09-03' });
    expect(next.manifest.vars.as_of).toBe('2026-09-03');
    expect(next.manifest.models).toBe(session.manifest.models);
  });

  it('withVars under the same vars again (a run after a run in one process) captures nothing again and gives the same session; other vars do not get it', async () => {
    dir = writeProject(FILES);
    const session = loadSession({ projectDir: dir });
    const first = await captured(() => withVars(session, { mat: 'view', upstream: 'm' }));
    expect(first.files).toEqual(['models/downstream.sql', 'models/m.sql']);
    const again = await captured(() => withVars(session, { mat: 'view', upstream: 'm' }));
    expect(again.files).toEqual([]);
    expect(again.result).toBe(first.result);
    const other = await captured(() => withVars(session, { mat: 'table', upstream: 'm' }));
    expect(other.files).toEqual(['models/downstream.sql', 'models/m.sql']);
    expect(other.result.manifest.models.get('m')?.config.materialized).toBe('table');
    expect(other.result.manifest.models.get('downstream')?.dependsOn).toEqual(['model.p.m']);
    // and a run on the kept session builds what those vars say
    expect((await run({ session, vars: { mat: 'view', upstream: 'm' } })).exitCode).toBe(0);
    expect(kind('m')).toBe('view');
  });

  it('withVars alternating between a few --vars (nightly runs and backfills in one process) reuses each; the oldest of more than four is captured again', async () => {
    dir = writeProject(FILES);
    const session = loadSession({ projectDir: dir });
    const asView = withVars(session, { mat: 'view' });
    const asTable = withVars(session, { mat: 'table' });
    const back = await captured(() => [withVars(session, { mat: 'view' }), withVars(session, { mat: 'table' })]);
    expect(back.files).toEqual([]);
    expect(back.result[0]).toBe(asView);
    expect(back.result[1]).toBe(asTable);
    expect(back.result[0].manifest.models.get('m')?.config.materialized).toBe('view');
    expect(back.result[1].manifest.models.get('m')?.config.materialized).toBe('table');
    // Three more var sets push the least recently used (view) out; table was used after it and stays.
    for (const mat of ['ephemeral', 'incremental', 'seed-like']) withVars(session, { mat });
    const after = await captured(() => [withVars(session, { mat: 'table' }), withVars(session, { mat: 'view' })]);
    expect(after.result[0]).toBe(asTable);
    expect(after.result[1]).not.toBe(asView);
    expect(after.files).toEqual(['models/m.sql']);
    expect(after.result[1].manifest.models.get('m')?.config.materialized).toBe('view');
  });

  it('withVars follows a ref() that reads var(): the dependency and the graph change with it', async () => {
    dir = writeProject(FILES);
    const session = loadSession({ projectDir: dir });
    expect(session.manifest.models.get('downstream')?.dependsOn).toEqual(['model.p.plain']);
    const { result: other, files } = await captured(() => withVars(session, { upstream: 'm' }));
    expect(files).toEqual(['models/downstream.sql']);
    expect(other.manifest.models.get('downstream')?.dependsOn).toEqual(['model.p.m']);
    expect(other.graph.parents.get('model.p.downstream')).toEqual(['model.p.m']);
    expect(other.graph.children.get('model.p.m')).toEqual(['model.p.downstream']);
    expect(session.graph.parents.get('model.p.downstream')).toEqual(['model.p.plain']);
    // and back: the session itself never changed
    expect(withVars(other, {}).manifest.models.get('downstream')?.dependsOn).toEqual(['model.p.plain']);
    expect(session.manifest.models.get('downstream')?.dependsOn).toEqual(['model.p.plain']);
  });

  it('the CLI: --vars {mat: view} then {mat: table} (the second load served by the parse cache, m captured again) builds the right kind each time', () => {
    dir = writeProject(FILES);
    const cli = (vars: string) => runCli(['run', '--vars', vars, '--project-dir', dir]);
    const stored = () => (JSON.parse(readFileSync(join(dir, 'target/partial_parse.json'), 'utf8')) as { models: Record<string, { vars?: Record<string, string> }> }).models;

    expect(cli('{mat: view}').code).toBe(0);
    expect(kind('m')).toBe('view');
    expect(stored().m?.vars).toEqual({ mat: '"view"' });
    expect(stored().plain?.vars).toBeUndefined();

    expect(cli('{mat: table}').code).toBe(0);
    expect(kind('m')).toBe('table');
    expect(stored().m?.vars).toEqual({ mat: '"table"' });

    expect(cli('{mat: view, upstream: m}').code).toBe(0);
    expect(kind('m')).toBe('view');
    expect(stored().downstream?.vars).toEqual({ upstream: '"m"' });
  });
});

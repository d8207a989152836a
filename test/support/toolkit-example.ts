import { openProjectWarehouse } from '../../src/engine/open-warehouse.js';
import { loadSession, run, type Session } from '../../src/index.js';
import { addDays, dateRange } from '../../src/feed/iso-date.js';
import { exampleProject } from './example-project.js';
import { writePgProfiles, type PgTestTarget } from './pg-test-database.js';

/** Where a toolkit test's example runs: SQLite (its file) or a PostgreSQL target of its own. */
export type ToolkitEngine = { readonly kind: 'sqlite' } | { readonly kind: 'pg'; readonly target: PgTestTarget };

export interface ToolkitExample {
  readonly dir: string;
  /** What every API call of the test passes (the project, and `--target pg` on PostgreSQL). */
  readonly options: { readonly projectDir: string; readonly profile?: string; readonly target?: string };
  /** A fresh session of the project on its engine (choosing the engine, as a command does). */
  session(): Session;
  /** Rows of a query on the warehouse, through mini-dbt's own connection (the target's schema is `main`). */
  rows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T[];
}

/**
 * The example project on an engine: on PostgreSQL its profiles.yml has a
 * `pg` output (the target given) and every call says `profile: 'brightcart', target: 'pg'`; on
 * SQLite it is the project's own file. The same test body then runs on both.
 */
export function toolkitExample(engine: ToolkitEngine): ToolkitExample {
  const dir = exampleProject();
  if (engine.kind === 'pg') writePgProfiles(dir, engine.target, { profile: 'brightcart', target: 'pg' });
  const options = engine.kind === 'pg' ? { projectDir: dir, profile: 'brightcart', target: 'pg' } : { projectDir: dir };
  const session = () => loadSession(options);
  return {
    dir,
    options,
    session,
    rows: <T>(sql: string, ...params: unknown[]) => {
      const db = openProjectWarehouse(session().project, { readonly: true });
      try {
        return db.prepare<T>(sql).all(...(params as never[]));
      } finally {
        db.close();
      }
    },
  };
}

/**
 * The nightly job as the spec's story runs it: the feed seeded, a full
 * build as of the night before `from`, then one incremental run a night
 * with the lookback, through `to` (the API, in this process).
 */
export async function runNightly(example: ToolkitExample, o: { from: string; to: string; lookback: number }): Promise<void> {
  const session = example.session();
  const must = async (p: ReturnType<typeof run>, what: string) => {
    const r = await p;
    if (r.exitCode !== 0) throw new Error(`${what} failed: ${r.results.map((x) => x.message).join('; ')}`);
  };
  await must(run({ session, command: 'seed', writeArtifacts: false }), 'seed');
  await must(run({ session, select: ['daily_revenue'], fullRefresh: true, vars: { as_of: addDays(o.from, -1) }, writeArtifacts: false }), 'the first build');
  for (const night of dateRange(o.from, o.to)) {
    await must(run({ session, select: ['daily_revenue'], vars: { as_of: night, lookback_days: o.lookback }, writeArtifacts: false }), `the night of ${night}`);
  }
}

/** Scratch schemas still in the example's PostgreSQL database (none on SQLite: its copies are temp files). */
export function scratchSchemasLeft(example: ToolkitExample, engine: ToolkitEngine): string[] {
  if (engine.kind !== 'pg') return [];
  return example.rows<{ name: string }>(`select nspname as name from pg_namespace where nspname like 'mini\\_dbt\\_scratch\\_%' order by 1`).map((r) => r.name);
}

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pgProjectDatabase, pgProjectProfiles, pgReader, sqliteReader, withReader, type EngineName, type WarehouseReader } from './engine-under-test.js';
import { writeProject } from './example-project.js';
import type { PgTestTarget } from './pg-test-database.js';
import { runCli, type CliResult } from './run-cli.js';

/** One node's entry in target/run_results.json, as the conformance cases read it. */
export interface RunResultEntry {
  readonly unique_id: string;
  readonly status: string;
  readonly message: string | null;
  readonly failures: number | null;
}

/** A CLI invocation and the run_results.json it wrote. */
export interface Invocation extends CliResult {
  readonly results: readonly RunResultEntry[];
  /** unique_id -> status, for whole-run comparisons. */
  readonly statuses: Record<string, string>;
}

/**
 * A dbt-style project (dbt_project.yml, models/, seeds/, tests/) in a temp
 * dir, driven through the real CLI, whose warehouse the cases then read:
 * what dbt's adapter tests do with run_dbt and relation_from_name.
 */
export interface ConformanceProject {
  readonly dir: string;
  /** The engine its warehouse is on. */
  readonly engine: EngineName;
  /** The PostgreSQL database it builds into (its profiles.yml's `pg` target), on PostgreSQL. */
  readonly pg?: PgTestTarget;
  /** Run the CLI in the project (run_results.json of an earlier command is removed first). */
  dbt(args: readonly string[]): Invocation;
  /** Rows of a relation, ordered by `orderBy` or by every column. */
  rows(relation: string, orderBy?: string): Record<string, unknown>[];
  count(relation: string): number;
  /** 'table', 'view', or undefined when the warehouse has no such relation. */
  relationType(relation: string): string | undefined;
  columns(relation: string): string[];
  /** The rows of any query on the warehouse. */
  query(sql: string): Record<string, unknown>[];
  /** Rows in one relation and not the other, both ways, plus the row-count gap: 0 when equal (dbt's check_relations_equal). */
  difference(a: string, b: string): number;
  write(path: string, text: string): void;
  exec(sql: string): void;
  /**
   * A new project dir holding a copy of this one as it is now (files, target/, the
   * warehouse): for cases that start where a shared beforeAll left a project, instead
   * of each running the same seed and run again.
   */
  copy(): ConformanceProject;
}

export interface ConformanceOptions {
  /** The engine to build on (default sqlite); on postgres the project gets a fresh database and a profiles.yml naming it. */
  readonly engine?: EngineName;
}

export function conformanceProject(files: Readonly<Record<string, string>>, name = 'conformance', options: ConformanceOptions = {}): ConformanceProject {
  const dir = writeProject({ 'dbt_project.yml': `name: ${name}\nversion: '1.0'\nprofile: default\n`, ...files });
  if ((options.engine ?? 'sqlite') === 'sqlite') return projectAt(dir);
  const pg = pgProjectDatabase(name);
  if (!('profiles.yml' in files)) writeFileSync(join(dir, 'profiles.yml'), pgProjectProfiles(pg, profileOf(dir)));
  return projectAt(dir, pg);
}

/** The `profile:` of the project's dbt_project.yml (default `default`). */
function profileOf(dir: string): string {
  const text = readFileSync(join(dir, 'dbt_project.yml'), 'utf8');
  return /^profile:\s*['"]?([^'"\s]+)/m.exec(text)?.[1] ?? 'default';
}

function projectAt(dir: string, pg?: PgTestTarget): ConformanceProject {
  const database = join(dir, 'warehouse.db');
  const withDb = <T>(fn: (db: WarehouseReader) => T): T => withReader(() => (pg ? pgReader(pg) : sqliteReader(database)), fn);
  const columns = (relation: string) => withDb((db) => db.columns(relation).map((c) => c.name));
  const project: ConformanceProject = {
    dir,
    engine: pg ? 'postgres' : 'sqlite',
    pg,
    dbt: (args) => {
      const resultsPath = join(dir, 'target/run_results.json');
      rmSync(resultsPath, { force: true });
      const out = runCli([...args, '--project-dir', dir]);
      const results = existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as { results: RunResultEntry[] }).results : [];
      return { ...out, results, statuses: Object.fromEntries(results.map((r) => [r.unique_id, r.status])) };
    },
    rows: (relation, orderBy) => withDb((db) => {
      const cols = db.columns(relation).map((c) => `"${c.name}"`);
      if (cols.length === 0) throw new Error(`no relation ${relation} in the warehouse`);
      return db.all(`select * from "${relation}" order by ${orderBy ?? cols.map((c) => `${c} nulls first`).join(', ')}`);
    }),
    count: (relation) => withDb((db) => Number(db.all(`select count(*) as n from "${relation}"`)[0]!.n)),
    relationType: (relation) => withDb((db) => db.kind(relation)),
    columns,
    query: (sql) => withDb((db) => db.all(sql)),
    difference: (a, b) => withDb((db) => {
      const cols = db.columns(a).map((c) => `"${c.name}"`).join(', ');
      const minus = (x: string, y: string) => Number(db.all(`select count(*) as n from (select ${cols} from "${x}" except select ${cols} from "${y}") as d`)[0]!.n);
      const size = (x: string) => Number(db.all(`select count(*) as n from "${x}"`)[0]!.n);
      return minus(a, b) + minus(b, a) + Math.abs(size(a) - size(b));
    }),
    write: (path, text) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    exec: (sql) => withDb((db) => db.exec(sql)),
    copy: () => {
      const to = mkdtempSync(join(tmpdir(), 'mini-dbt-project-'));
      cpSync(dir, to, { recursive: true });
      if (!pg) return projectAt(to);
      const copied = pgProjectDatabase('copy', pg.database);
      writeFileSync(join(to, 'profiles.yml'), pgProjectProfiles(copied, profileOf(to)));
      return projectAt(to, copied);
    },
  };
  return project;
}

import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeProject } from './example-project.js';
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
  /** Run the CLI in the project (run_results.json of an earlier command is removed first). */
  dbt(args: readonly string[]): Invocation;
  /** Rows of a relation, ordered by `orderBy` or by every column. */
  rows(relation: string, orderBy?: string): Record<string, unknown>[];
  count(relation: string): number;
  /** 'table', 'view', or undefined when the warehouse has no such relation. */
  relationType(relation: string): string | undefined;
  columns(relation: string): string[];
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

export function conformanceProject(files: Readonly<Record<string, string>>, name = 'conformance'): ConformanceProject {
  return projectAt(writeProject({ 'dbt_project.yml': `name: ${name}\nversion: '1.0'\nprofile: default\n`, ...files }));
}

function projectAt(dir: string): ConformanceProject {
  const database = join(dir, 'warehouse.db');
  const withDb = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(database);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  const columns = (relation: string) => withDb((db) => (db.prepare('select name from pragma_table_info(?)').all(relation) as { name: string }[]).map((c) => c.name));
  const project: ConformanceProject = {
    dir,
    dbt: (args) => {
      const resultsPath = join(dir, 'target/run_results.json');
      rmSync(resultsPath, { force: true });
      const out = runCli([...args, '--project-dir', dir]);
      const results = existsSync(resultsPath) ? (JSON.parse(readFileSync(resultsPath, 'utf8')) as { results: RunResultEntry[] }).results : [];
      return { ...out, results, statuses: Object.fromEntries(results.map((r) => [r.unique_id, r.status])) };
    },
    rows: (relation, orderBy) => withDb((db) => {
      const cols = columns(relation).map((c) => `"${c}"`);
      if (cols.length === 0) throw new Error(`no relation ${relation} in the warehouse`);
      return db.prepare(`select * from "${relation}" order by ${orderBy ?? cols.join(', ')}`).all() as Record<string, unknown>[];
    }),
    count: (relation) => withDb((db) => (db.prepare(`select count(*) as n from "${relation}"`).get() as { n: number }).n),
    relationType: (relation) => withDb((db) => (db.prepare("select type from sqlite_master where name = ? and type in ('table', 'view')").get(relation) as { type: string } | undefined)?.type),
    columns,
    difference: (a, b) => withDb((db) => {
      const cols = columns(a).map((c) => `"${c}"`).join(', ');
      const minus = (x: string, y: string) => (db.prepare(`select count(*) as n from (select ${cols} from "${x}" except select ${cols} from "${y}")`).get() as { n: number }).n;
      const size = (x: string) => (db.prepare(`select count(*) as n from "${x}"`).get() as { n: number }).n;
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
      return projectAt(to);
    },
  };
  return project;
}

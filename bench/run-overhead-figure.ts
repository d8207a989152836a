/**
 * Per-model overhead of `run`: a generated project of 200 trivial table
 * models, run through the engine (one loaded session, as `run` does after
 * loading), interleaved with executing exactly the SQL statements its plans
 * hold, straight on a warehouse connection, one transaction per model. The
 * difference, divided by 200, is what the engine adds per model (rendering,
 * planning, introspection, the ledger rows, artifacts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWarehouse, type Warehouse } from '../src/engine/open-warehouse.js';
import { swapRelation } from '../src/engine/swap-relation.js';
import { compile, loadSession, run, type PlannedStatement } from '../src/index.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, type Figure } from './figure.js';
import { mustSucceed } from './history-workspace.js';
import { sideBySide, timed } from './side-by-side.js';

const MODELS = 200;
const TARGET_MS = 2;

function writeTrivialProject(dir: string): void {
  mkdirSync(join(dir, 'models'), { recursive: true });
  writeFileSync(join(dir, 'project.yml'), 'name: trivial\ndatabase: warehouse.db\nmodels:\n  +materialized: table\n');
  for (let i = 0; i < MODELS; i++) {
    const name = `m_${String(i).padStart(3, '0')}`;
    const from = i % 10 === 0 ? '' : `\nfrom {{ ref('m_${String(i - 1).padStart(3, '0')}') }}`;
    writeFileSync(join(dir, 'models', `${name}.sql`), `select ${i} as id, 'model ${i}' as label${from}\n`);
  }
}

/** The SQL of one statement, as the engine runs it. */
function runStatement(db: Warehouse, statement: PlannedStatement): void {
  switch (statement.kind) {
    case 'exec':
      if (statement.legacyAlter) db.withViewsUntouched(() => db.exec(statement.sql));
      else db.exec(statement.sql);
      return;
    case 'swap':
      swapRelation(db, statement.staged, statement.target);
      return;
    case 'assert-none':
    case 'collect-partitions':
    case 'count-rows':
      db.prepare(statement.sql).all();
      return;
    default:
      return;
  }
}

export async function runOverheadFigure(ctx: BenchContext): Promise<Figure> {
  const dir = ctx.path('trivial-200');
  writeTrivialProject(dir);
  const session = loadSession({ projectDir: dir });
  mustSucceed(await run({ session }), 'first build of the trivial project');
  const plans = compile({ projectDir: dir }).map((m) => m.plan);
  if (plans.length !== MODELS) throw new Error(`compiled ${plans.length} models, expected ${MODELS}`);
  const db = openWarehouse(session.project.databasePath);
  try {
    const { medians } = await sideBySide(
      {
        engine: () => timed(async () => mustSucceed(await run({ session }), 'run')),
        sql: () =>
          timed(() => {
            for (const plan of plans) {
              db.begin();
              for (const statement of plan.statements) runStatement(db, statement);
              db.commit();
            }
          }),
      },
      ctx.repeats,
    );
    const perModel = (medians.engine - medians.sql) / MODELS;
    return {
      id: 'run-overhead',
      title: `per-model overhead of \`run\` (${MODELS} trivial table models)`,
      ratioOf: 'engine run / the same SQL run bare',
      ratio: medians.engine / medians.sql,
      measured: `${formatMs(perModel)} a model (engine ${formatMs(medians.engine)}, bare SQL ${formatMs(medians.sql)})`,
      target: `< ${TARGET_MS} ms a model`,
      meets: perModel < TARGET_MS,
    };
  } finally {
    db.close();
  }
}

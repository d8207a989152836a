import type { Warehouse } from '../engine/open-warehouse.js';
import { refuseReservedWrites } from '../engine/refuse-reserved-writes.js';
import type { NodePlan } from '../plan/node-plan.js';
import type { PlannedStatement } from '../materialize/planned-statement.js';
import { crashPoint, injectedFailure } from '../test-hooks.js';
import { checkViewCompiles } from './check-view-compiles.js';
import { runStatements, type HookRenderer, type StatementOutcome } from './run-statements.js';

const outside = (s: PlannedStatement, when: 'before' | 'after') => s.kind === 'exec' && s.outsideTransaction === when;

/**
 * One publish: hooks marked `transaction: false` before BEGIN, then every
 * other statement and the ledger write (`beforeCommit`) in one IMMEDIATE
 * transaction, COMMIT, then the `transaction: false` post-hooks. Anything
 * failing inside rolls the whole publish back, a view whose SELECT does not
 * compile included. Hook templates are rendered by `renderHook` as each runs
 * (a post-hook inside the transaction sees the relation as the publish left it).
 */
export function publishPlan(db: Warehouse, plan: NodePlan, beforeCommit: (outcome: StatementOutcome) => void, renderHook?: HookRenderer): StatementOutcome {
  // A model's SELECT writes nothing on SQLite, but on PostgreSQL a data-modifying WITH (`with d as (delete
  // from _mini_dbt_runs returning 1) select ...`) runs inside the create table as: never on the tool's tables (E230).
  refuseReservedWrites(plan.sql, `the SQL of model '${plan.name}'`);
  const before = plan.statements.filter((s) => outside(s, 'before'));
  const after = plan.statements.filter((s) => outside(s, 'after'));
  const inside = plan.statements.filter((s) => !outside(s, 'before') && !outside(s, 'after'));
  if (before.length > 0) runStatements(db, { ...plan, statements: before }, renderHook);
  let outcome: StatementOutcome;
  db.begin();
  try {
    outcome = runStatements(db, { ...plan, statements: inside }, renderHook);
    if (plan.mode === 'view') checkViewCompiles(db, plan.relation);
    beforeCommit(outcome);
    crashPoint();
    injectedFailure(plan.name, 'commit');
    db.commit();
    crashPoint();
  } catch (err) {
    db.rollback();
    throw err;
  }
  if (after.length > 0) runStatements(db, { ...plan, statements: after }, renderHook);
  return outcome;
}

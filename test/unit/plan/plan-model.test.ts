import { describe, expect, it } from 'vitest';
import type { ModelNode } from '../../../src/compile/manifest.js';
import { planScript } from '../../../src/plan/node-plan.js';
import { parseModelSettings } from '../../../src/config/model-settings.js';
import { PARSE_CONTEXT } from '../../../src/invocation/run-context.js';
import { buildMode } from '../../../src/plan/build-mode.js';
import { planModel } from '../../../src/plan/plan-model.js';

function node(config: Record<string, unknown>, name = 'daily'): ModelNode {
  return {
    resourceType: 'model',
    uniqueId: `model.p.${name}`,
    name,
    alias: name,
    schema: 'main',
    file: { name, path: `models/${name}.sql`, absPath: `/x/models/${name}.sql`, rawSql: '', folders: [] },
    fqn: ['p', name],
    config,
    settings: parseModelSettings(config),
    refs: [],
    sources: [],
    dependsOn: [],
  };
}

const INC = { materialized: 'incremental', incremental_strategy: 'delete+insert', unique_key: 'day', partition_by: 'day' };
/** planModel in the mode buildMode decides for this target and these flags (a backfill of 2026-09-01..03; `guarded` names the guarded model). */
function planned(n: ModelNode, sql: string, existing: 'table' | 'view' | null, targetColumns: string[], extra: { fullRefresh?: boolean; backfill?: boolean; guarded?: string } = {}) {
  const backfill = extra.backfill ? { start: '2026-09-01', end: '2026-09-03', ...(extra.guarded ? { guarded: extra.guarded } : {}) } : undefined;
  const mode = buildMode({ node: n, existing, context: { ...PARSE_CONTEXT, fullRefresh: extra.fullRefresh ?? false, backfill } });
  if (mode.kind === 'microbatch') throw new Error('microbatch models are planned by planMicrobatch');
  return planModel({ node: n, sql, mode, existing, targetColumns, backfill: backfill !== undefined });
}
const plan = (config: Record<string, unknown>, existing: 'table' | 'view' | null, extra: { fullRefresh?: boolean; backfill?: boolean } = {}) =>
  planned(node(config), 'select day, n from src', existing, ['day', 'n'], extra);

describe('planModel', () => {
  it('builds an incremental model as a full table on its first run, with the reason', () => {
    const p = plan(INC, null);
    expect(p.mode).toBe('full');
    expect(p.reason).toMatch(/first build/);
    const sql = p.statements.filter((s) => s.kind === 'exec').map((s) => s.sql);
    expect(sql).toContain('create table "daily__mini_dbt_tmp" as\nselect day, n from src');
    expect(sql).toContain('create index "daily__idx__day" on "daily" ("day")');
    expect(p.statements.map((s) => s.kind)).toContain('swap');
  });

  it('rebuilds when the existing relation is a view, under --full-refresh, and when full_refresh: true', () => {
    expect(plan(INC, 'view').reason).toMatch(/is a view/);
    expect(plan(INC, 'table', { fullRefresh: true }).reason).toBe('--full-refresh');
    expect(plan({ ...INC, full_refresh: true }, 'table').reason).toBe('config full_refresh: true');
    expect(plan({ ...INC, full_refresh: false }, 'table', { fullRefresh: true }).mode).toBe('incremental');
  });

  it('runs delete+insert through a temp table: stage, checks, delete by key, insert the target columns', () => {
    const p = plan(INC, 'table');
    expect(p.mode).toBe('incremental');
    const script = planScript(p);
    expect(script).toContain('create temp table "daily__mini_dbt_new" as\nselect day, n from src');
    expect(script).toContain('delete from "daily"\nwhere "day" in (select distinct "day" from temp."daily__mini_dbt_new")');
    expect(script).toContain('insert into "daily" ("day", "n")\nselect "day", "n" from temp."daily__mini_dbt_new"');
    expect(script).toContain('select count(*) from temp."daily__mini_dbt_new" where "day" is null');
    const roles = p.statements.flatMap((s) => (s.kind === 'exec' ? [s.role] : [s.kind]));
    expect(roles).toEqual(['drop', 'stage', 'require-columns', 'warn-count', 'collect-partitions', 'delete', 'insert', 'drop']);
    expect(script).toContain("-- check (warns, the publish goes on): rows that have NULL in unique_key column 'day'; delete+insert never deletes them, so a rerun adds them again (dbt's behaviour; unique_key_nulls: error refuses them)");
  });

  it('refuses NULL keys instead of warning under unique_key_nulls: error, full builds included', () => {
    for (const existing of ['table', null] as const) {
      const checks = plan({ ...INC, unique_key_nulls: 'error' }, existing).statements.filter((s) => s.kind === 'assert-none' || s.kind === 'warn-count');
      expect(checks.map((s) => [s.kind, 'message' in s ? s.message : ''])).toEqual([['assert-none', "model 'daily' produced NULL in unique_key column 'day'"]]);
    }
  });

  it('a backfill checks the key is unique, and the backfill command\'s model that every partition is in the range', () => {
    const guarded = planned(node(INC), 'select day, n from src', 'table', ['day', 'n'], { backfill: true, guarded: 'model.p.daily' });
    const checks = guarded.statements.filter((s) => s.kind === 'assert-none').map((s) => s.message);
    expect(checks).toEqual([
      "model 'daily' produced NULL in unique_key column 'day'",
      "model 'daily' produced duplicate unique_key (day) values",
      "model 'daily' would write partitions outside 2026-09-01..2026-09-03: its incremental branch ignores the start/end vars",
    ]);
    expect(planScript(guarded)).toContain(`where "day" is null or not (coalesce(date("day"), cast("day" as text)) between '2026-09-01' and '2026-09-03')`);
    // A partition of the range the new rows no longer have is emptied, not left with its old rows.
    expect(planScript(guarded)).toContain(`delete from "daily" where (coalesce(date("day"), cast("day" as text)) between '2026-09-01' and '2026-09-03') and "day" not in (select "day" from temp."daily__mini_dbt_new" where "day" is not null)`);
    // The same run for another model, or a nightly run, has no range check; a nightly run warns about NULL keys.
    expect(plan(INC, 'table', { backfill: true }).statements.filter((s) => s.kind === 'assert-none')).toHaveLength(2);
    const nightly = planned(node(INC), 'select 1', 'table', [], { backfill: false, guarded: 'model.p.daily' });
    expect(nightly.statements.filter((s) => s.kind === 'assert-none')).toHaveLength(0);
    expect(nightly.statements.filter((s) => s.kind === 'warn-count')).toHaveLength(1);
  });

  it('deletes by a tuple for a list unique_key and ANDs incremental_predicates', () => {
    const p = plan({ ...INC, unique_key: ['day', 'shop'], incremental_predicates: ["day >= '2026-01-01'"] }, 'table');
    expect(planScript(p)).toContain('where ("day", "shop") in (select distinct "day", "shop" from temp."daily__mini_dbt_new")\n  and (day >= \'2026-01-01\')');
  });

  it('appends without deleting under append, and when no unique_key is set', () => {
    for (const config of [{ ...INC, incremental_strategy: 'append' }, { materialized: 'incremental' }]) {
      const script = planScript(plan(config, 'table'));
      expect(script).not.toContain('delete from');
      expect(script).toContain('insert into "daily"');
    }
  });

  it("notes dbt's append trap once per plan: delete+insert without unique_key, or the default strategy without one; not an explicit append", () => {
    const consequence = "(dbt's behaviour); rows are duplicated on each rerun of the same window. Set unique_key to replace.";
    expect(plan({ materialized: 'incremental', incremental_strategy: 'delete+insert' }, 'table').notes).toEqual([`delete+insert without unique_key appends every run ${consequence}`]);
    expect(plan({ materialized: 'incremental' }, null).notes).toEqual([`no unique_key, so the default strategy is append, which appends every run ${consequence}`]);
    expect(planScript(plan({ materialized: 'incremental' }, 'table'))).toContain('-- note: no unique_key, so the default strategy is append');
    for (const config of [INC, { materialized: 'incremental', incremental_strategy: 'append' }, { materialized: 'table' }]) {
      expect(plan(config, 'table').notes).toBeUndefined();
    }
  });

  it('marks a run with start and end vars as a backfill', () => {
    expect(plan(INC, 'table', { backfill: true }).mode).toBe('backfill');
  });

  it('replaces a view by dropping the old relation and creating the view in one publish', () => {
    const p = plan({ materialized: 'view' }, 'table');
    expect(p.statements.filter((s) => s.kind === 'exec').map((s) => s.sql)).toEqual(['drop table "daily"', 'create view "daily" as\nselect day, n from src']);
  });

  it('quotes identifiers with quotes and spaces', () => {
    const p = planned({ ...node(INC, 'we"ird name'), alias: 'we"ird name' }, 'select 1', 'table', ['da"y']);
    expect(planScript(p)).toContain('insert into "we""ird name" ("da""y")');
  });
});

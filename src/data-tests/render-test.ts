import type { Manifest } from '../compile/manifest.js';
import { Relation } from '../compile/relation.js';
import { deferredRelation } from '../compile/deferred-ref.js';
import { emptySubquery } from '../compile/event-time-filter.js';
import { ProjectError } from '../errors/project-error.js';
import { findLine } from '../compile/find-line.js';
import { requireOneStatement } from '../compile/single-statement.js';
import { inlineEphemerals, type EphemeralCte } from '../compile/inline-ephemerals.js';
import { renderTestArgs } from './render-test-args.js';
import { runtimeTestState, type TestRenderOptions } from './test-render-state.js';
import type { TestNode } from '../compile/test-node.js';

/**
 * A test's SELECT of failing rows, rendered against the warehouse. Generic
 * tests get `model` (wrapped in `(select * from <rel> where <where>)
 * dbt_subquery` when `where` is configured), `column_name` and their
 * rendered arguments.
 */
export function renderTest(manifest: Manifest, test: TestNode, options: TestRenderOptions = {}): string {
  return requireOneStatement(renderTestSql(manifest, test, options), {
    what: `test '${test.name}'`,
    file: test.path,
    lineOf: (start) => (test.testType === 'singular' ? findLine(test.rawSql, start) : test.lineOf?.()),
    rule: 'a data test is one select of its failing rows',
  });
}

function renderTestSql(manifest: Manifest, test: TestNode, options: TestRenderOptions): string {
  // Ephemeral models the test reads (through ref(), or as the model a generic test is on) become CTEs in front of it.
  const ctes = new Map<string, EphemeralCte>();
  const state = runtimeTestState(manifest, test, options, ctes);
  const { jinja } = manifest;
  if (test.testType === 'singular') return inlineEphemerals(jinja.render(test.path, test.rawSql, state).trim(), [...ctes.values()]);
  const target = test.attachedTo ? manifest.nodes.get(test.attachedTo) : undefined;
  if (!target) throw new ProjectError(`test '${test.name}' is declared on a node that no longer exists`, { location: { file: test.path, line: test.lineOf?.() } });
  const type = target.resourceType === 'model' ? (target.settings.materialized as 'table' | 'view') : 'table';
  const where = test.config.where;
  // --empty: the tested relation reads no rows, as its ref() does in dbt.
  const ephemeral = target.resourceType === 'model' && target.settings.materialized === 'ephemeral' ? state.ref(target.name) : undefined;
  // --defer: the tested node read where the state's manifest built it when it is unselected or unbuilt (dbt's ref() in the test's model argument).
  const at = target.resourceType === 'source' ? target : deferredRelation(options.run, options.db, target) ?? target;
  const bare = ephemeral ?? new Relation(at.alias, type, undefined, at.schema);
  const from = ephemeral ? String(ephemeral) : options.run?.empty ? emptySubquery(bare.render(), bare.identifier) : bare.render();
  let model = ephemeral ?? (options.run?.empty ? new Relation(at.alias, type, from, at.schema) : bare);
  if (where !== undefined && where !== null && String(where).trim() !== '') {
    const condition = renderTestArgs(jinja, test.path, String(where), state);
    model = new Relation(at.alias, type, `(select * from ${from} where ${String(condition)}) dbt_subquery`, at.schema);
  }
  const args = renderTestArgs(jinja, test.path, test.args, state) as Record<string, unknown>;
  const locals: Record<string, unknown> = { __model: model, __column_name: test.columnName };
  for (const [k, v] of Object.entries(args)) locals[`__arg_${k}`] = v;
  return inlineEphemerals(jinja.render(test.path, test.rawSql, state, locals).trim(), [...ctes.values()]);
}

import { FILE_TARGET } from '../../src/project/target.js';
import { PARSE_CONTEXT } from '../../src/invocation/run-context.js';
import { Relation } from '../../src/compile/relation.js';
import type { RenderState } from '../../src/compile/render-state.js';

/** A render state for rendering templates without a project: vars region/lookback_days/flag/list, refs and sources recorded. */
export function stubState(incremental: boolean): RenderState & { refs: string[]; sources: string[] } {
  const refs: string[] = [];
  const sources: string[] = [];
  const vars: Record<string, unknown> = { region: 'eu', lookback_days: 3, flag: false, list: [1, 2] };
  return {
    refs,
    sources,
    modelName: 'm',
    modelPath: 'models/m.sql',
    execute: true,
    vars: (name) => ({ found: name in vars, value: vars[name] }),
    varNames: () => Object.keys(vars),
    ref: (name) => {
      refs.push(name);
      return new Relation(name, 'table');
    },
    source: (s, t) => {
      sources.push(`${s}.${t}`);
      return new Relation(t, 'table');
    },
    self: new Relation('m', incremental ? 'table' : null),
    isIncremental: () => incremental,
    config: { materialized: 'incremental' },
    captured: { refs: [], sources: [], config: {} },
    run: { ...PARSE_CONTEXT, invocationId: 'inv' },
    target: FILE_TARGET,
    databasePath: 'warehouse.db',
    log: () => undefined,
  };
}

/** The programmatic API: everything the CLI does. */
export { run, type RunOptions, type RunResult } from './api/run.js';
export { compile, type CompileOptions, type CompiledModel } from './api/compile.js';
export { listNodes, type ListOptions, type ListedNode } from './api/list-nodes.js';
export { parseVars } from './api/parse-vars.js';
export { loadSession, openSessionWarehouse, withVars, type Session, type SessionOptions } from './api/session.js';
export { ProjectError, ProjectErrors, isProjectError } from './errors/project-error.js';
export type { NodeResult, RunEvent } from './execute/node-result.js';
export type { NodePlan, PlannedStatement } from './plan/node-plan.js';
export { planScript } from './plan/node-plan.js';
export { openWarehouse } from './db/open-warehouse.js';

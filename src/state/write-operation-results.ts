import { DBT_VERSION, MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { join } from 'node:path';
import { nowIso } from '../clock.js';
import type { Project } from '../project/project.js';
import { writeArtifact } from './artifact-write-error.js';

export interface OperationResult {
  readonly invocationId: string;
  /** dbt's `macro.<project>.<name>`. */
  readonly uniqueId: string;
  readonly status: 'success' | 'error';
  readonly message: string | null;
  readonly executionTime: number;
  readonly startedAt: string;
  readonly args: Readonly<Record<string, unknown>>;
}


/** run-operation's target/run_results.json, as dbt writes it: one result, the macro, with compile and execute timings. */
export function writeOperationResults(project: Project, result: OperationResult): void {
  const completedAt = nowIso();
  const file = {
    metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/run-results/v6.json', dbt_version: DBT_VERSION, mini_dbt_version: VERSION, generated_at: completedAt, invocation_id: result.invocationId },
    elapsed_time: result.executionTime,
    args: { which: 'run-operation', args: result.args, invocation_command: 'mini-dbt run-operation' },
    results: [{
      unique_id: result.uniqueId,
      status: result.status,
      timing: [{ name: 'compile', started_at: result.startedAt, completed_at: result.startedAt }, { name: 'execute', started_at: result.startedAt, completed_at: completedAt }],
      thread_id: 'MainThread',
      execution_time: result.executionTime,
      adapter_response: {},
      message: result.message,
      failures: result.status === 'success' ? 0 : 1,
    }],
  };
  writeArtifact(project.root, join(project.root, project.paths.target, 'run_results.json'), `${JSON.stringify(file, null, 2)}\n`);
}

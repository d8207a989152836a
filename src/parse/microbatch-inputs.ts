import { engine } from '../engine/current-engine.js';
import { ProjectError } from '../errors/project-error.js';
import { warnUser } from '../errors/user-warning.js';
import type { ManifestNode, ModelNode } from '../compile/manifest.js';

const isMicrobatch = (node: ModelNode) => node.settings.materialized === 'incremental' && node.settings.strategy === 'microbatch';

/**
 * What dbt checks of microbatch models once their inputs are known:
 *
 * - an input whose `event_time` is set but not a string is a parse error;
 * - a model none of whose inputs declares `event_time` reads every input
 *   row in every batch (no filter applies): a warning, MicrobatchModelNoEventTimeInputs;
 * - `concurrent_batches: true` on an adapter that runs batches one after
 *   another (SQLite has one writer): a warning, InvalidConcurrentBatchesConfig.
 *
 * Both warnings carry dbt's event names, so `--warn-error-options '{silence: [...]}'` silences them.
 */
export function checkMicrobatchInputs(models: Iterable<ModelNode>, nodes: ReadonlyMap<string, ManifestNode>): ProjectError[] {
  const problems: ProjectError[] = [];
  let concurrent = 0;
  for (const model of models) {
    if (!isMicrobatch(model)) continue;
    if (model.config.concurrent_batches === true) concurrent++;
    const inputs = model.dependsOn.map((id) => nodes.get(id)).filter((n): n is ManifestNode => n !== undefined);
    for (const input of inputs) {
      const value = input.config.event_time;
      if (value !== undefined && value !== null && typeof value !== 'string') {
        problems.push(new ProjectError(`microbatch model '${model.name}' depends on an input node '${input.name}' with an 'event_time' config of invalid (non-string) type: ${JSON.stringify(value)}`, {
          location: { file: model.file.path },
        }));
      }
    }
    if (!inputs.some((n) => typeof n.config.event_time === 'string' && n.config.event_time !== '')) {
      warnUser(
        `The microbatch model '${model.name}' has no 'ref' or 'source' input with an 'event_time' configuration: no filtering can be applied, so every batch reads every input row and the model can get duplicate records`,
        'MicrobatchModelNoEventTimeInputs',
      );
    }
  }
  if (concurrent > 0) {
    warnUser(
      `Found ${concurrent} microbatch model${concurrent === 1 ? '' : 's'} with the \`concurrent_batches\` config set to true, but the ${engine.name} adapter does not support running batches concurrently: batches run sequentially`,
      'InvalidConcurrentBatchesConfig',
    );
  }
  return problems;
}

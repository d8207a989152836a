import type { Hook } from '../config/hook-config.js';
import type { ModelHooks } from '../config/model-settings.js';
import { relationKind } from '../engine/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import type { EphemeralCte } from './inline-ephemerals.js';
import type { Manifest, ModelNode } from './manifest.js';
import { modelRenderState, type RenderModelOptions } from './render-model.js';

/**
 * A model's hooks as the plan carries them: each template kept as it is,
 * named (`models/m.sql#post_hook[0]`) for renderModelHook to render when it
 * runs, as dbt's run_hooks renders it; plain SQL needs no render.
 */
export function runtimeHooks(node: ModelNode): ModelHooks {
  const named = (which: 'pre_hook' | 'post_hook') => (h: Hook, i: number): Hook =>
    (h.sql.includes('{') ? { ...h, template: `${node.file.path}#${which}[${i}]` } : h);
  return { pre: node.settings.hooks.pre.map(named('pre_hook')), post: node.settings.hooks.post.map(named('post_hook')) };
}

/**
 * Render one of a model's hook templates now, in the context the model's own
 * SQL saw (this, var, config, target, is_incremental(), model, the batch of a
 * microbatch model), its run_query / statement against `options.db`, the live
 * connection (inside the publish transaction for a transactional hook): a
 * post-hook reads and writes the relation its model has just built. `this`
 * is looked up again, as it stands now. A template that fails says so under
 * its message, naming the hook and the model (its location names the hook's template).
 */
export function renderModelHook(manifest: Manifest, node: ModelNode, hook: { readonly sql: string; readonly template: string }, options: RenderModelOptions): string {
  const existing = options.existing !== undefined ? options.existing : options.db ? relationKind(options.db, node.alias, node.schema) : null;
  const state = modelRenderState(manifest, node, options, existing, new Map<string, EphemeralCte>());
  try {
    return manifest.jinja.render(hook.template, hook.sql, state).trim();
  } catch (err) {
    const which = hook.template.slice(hook.template.lastIndexOf('#') + 1);
    if (err instanceof ProjectError) {
      throw new ProjectError(`${err.message}\n  > in ${which} of model '${node.name}', rendered as it ran`, { location: err.location.file ? err.location : { file: hook.template }, hint: err.hint, exitCode: err.exitCode });
    }
    throw err;
  }
}

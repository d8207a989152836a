import { ProjectError, ProjectErrors } from '../errors/project-error.js';

/** A model not compiled because a model it depends on (directly or through others) failed to render. */
export interface RenderSkip {
  readonly name: string;
  /** The unique id of the model that failed to render: the root cause. */
  readonly causeId: string;
}

/**
 * The models that depend, directly or through other models, on one that
 * failed to render, each with the root cause, in the order of `refsByModel`.
 * A model that failed itself is not listed (its own error says why).
 */
export function skipsOfRenderFailures(
  refsByModel: ReadonlyMap<string, readonly string[]>,
  failed: ReadonlyMap<string, string>,
): RenderSkip[] {
  if (failed.size === 0) return [];
  const children = new Map<string, string[]>();
  for (const [name, refs] of refsByModel) {
    for (const ref of refs) {
      const list = children.get(ref);
      if (list) list.push(name);
      else children.set(ref, [name]);
    }
  }
  const cause = new Map<string, string>();
  for (const [name, causeId] of failed) {
    const queue = [name];
    while (queue.length > 0) {
      for (const child of children.get(queue.shift()!) ?? []) {
        if (failed.has(child) || cause.has(child)) continue;
        cause.set(child, causeId);
        queue.push(child);
      }
    }
  }
  return [...refsByModel.keys()].filter((name) => cause.has(name)).map((name) => ({ name, causeId: cause.get(name)! }));
}

/**
 * The errors of a load where some models failed to render, followed by one
 * line per dependent that was therefore not compiled, worded as a run
 * reports a skipped descendant: `SKIP relation main.<name>: skipped because <id> failed to render`.
 */
export class RenderFailureErrors extends ProjectErrors {
  readonly skips: readonly RenderSkip[];

  constructor(errors: readonly ProjectError[], skips: readonly RenderSkip[]) {
    super(errors);
    this.skips = skips;
    this.message = this.format();
  }

  override format(): string {
    const lines = this.skips.map((s) => `SKIP relation main.${s.name}: skipped because ${s.causeId} failed to render`);
    return [super.format(), ...lines].join('\n');
  }
}

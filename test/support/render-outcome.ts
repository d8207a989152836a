import type { JinjaEnvironment } from '../../src/compile/jinja-environment.js';
import { ProjectError } from '../../src/errors/project-error.js';
import { stubState } from './stub-render-state.js';

/** What rendering a template gave: its output or its error (as the CLI prints it), and what it captured. */
export interface RenderOutcome {
  readonly output?: string;
  readonly error?: string;
  readonly captured: unknown;
}

/** What a render captured; a function captured (`config(x=is_incremental)`) is compared by its name, since each render makes its own. */
function capturedBy(state: ReturnType<typeof stubState>): unknown {
  return JSON.parse(JSON.stringify([state.refs, state.sources, state.captured.config], (_key, value: unknown) => (typeof value === 'function' ? `<function ${value.name}>` : value)));
}

/** Render `source` through `env` on a stub render state, for comparing two ways of rendering the same template. */
export function renderOutcome(env: JinjaEnvironment, path: string, source: string, incremental: boolean, locals?: Record<string, unknown>): RenderOutcome {
  const state = stubState(incremental);
  try {
    return { output: env.render(path, source, state, locals), captured: capturedBy(state) };
  } catch (err) {
    // format(): the message with file:line:column, as the CLI prints it.
    return { error: err instanceof ProjectError ? err.format() : String(err), captured: capturedBy(state) };
  }
}

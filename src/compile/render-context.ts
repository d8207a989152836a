import { FILE_TARGET } from '../project/target.js';
import { PARSE_CONTEXT } from '../invocation/run-context.js';
import { contextFunctions } from './context-functions.js';
import { dbtRuntimeContext } from './jinja/dbt-runtime-context.js';
import type { RenderState } from './render-state.js';

/** Names every render defines (the runtime part wins where both define one, as run_started_at). */
const FAKE_STATE = { captured: { refs: [], sources: [], config: {} }, config: {}, run: PARSE_CONTEXT, target: FILE_TARGET } as unknown as RenderState;
const FUNCTION_NAMES = Object.keys(contextFunctions(FAKE_STATE));
const RUNTIME_NAMES = Object.keys(dbtRuntimeContext(FAKE_STATE, () => undefined));
export const CONTEXT_NAMES: readonly string[] = [...new Set([...FUNCTION_NAMES, ...RUNTIME_NAMES])];

/**
 * The dbt context of one render: contextFunctions plus what needs the
 * warehouse or Python's modules (dbtRuntimeContext). Each half is built the
 * first time a template reads one of its names, so a render that only calls
 * ref() and config() never builds adapter, modules or statement helpers.
 */
export class RenderContext {
  private functions?: Record<string, unknown>;
  private runtime?: Record<string, unknown>;

  constructor(
    private readonly state: RenderState,
    private readonly lookupGlobal: (name: string) => unknown,
  ) {}

  static {
    const define = (name: string, get: (this: RenderContext) => unknown) =>
      Object.defineProperty(RenderContext.prototype, name, { get, enumerable: true, configurable: true });
    for (const name of FUNCTION_NAMES) {
      define(name, function functionsGetter() {
        return (this.functions ??= contextFunctions(this.state))[name];
      });
    }
    for (const name of RUNTIME_NAMES) {
      define(name, function runtimeGetter() {
        return (this.runtime ??= dbtRuntimeContext(this.state, this.lookupGlobal))[name];
      });
    }
  }
}

import type { ModelVersion } from '../project/model-version.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import type { RunContext } from '../invocation/run-context.js';
import type { EventTimeBatch } from './event-time-filter.js';
import type { Relation } from './relation.js';
import type { Target } from '../project/target.js';

/** A ref() or source() call recorded while rendering. */
export interface CapturedRef {
  readonly name: string;
  readonly package?: string;
}

export interface Captured {
  readonly refs: CapturedRef[];
  readonly sources: [string, string][];
  readonly config: Record<string, unknown>;
}

/** Everything the Jinja context of one model render needs. */
export interface RenderState {
  readonly modelName: string;
  readonly modelPath: string;
  /** A versioned model's version: `model.name` is then its model's name, `model.version` the version (modelName stays its key, `<name>.v<v>`). */
  readonly modelVersion?: ModelVersion;
  /** The package of the node rendered (its macros come first unqualified); absent: the root project. */
  readonly packageName?: string;
  /** false in the capture pass (no warehouse), true at run time. */
  readonly execute: boolean;
  readonly vars: (name: string) => { found: boolean; value: unknown };
  readonly varNames: () => string[];
  readonly ref: (name: string, pkg?: string) => Relation;
  readonly source: (sourceName: string, tableName: string) => Relation;
  readonly self: Relation;
  readonly isIncremental: () => boolean;
  readonly config: Record<string, unknown>;
  readonly captured: Captured;
  readonly db?: Warehouse;
  /** The invocation: invocation_id, run_started_at, flags.FULL_REFRESH (PARSE_CONTEXT outside a run). */
  readonly run: RunContext;
  /** The profile's target (`target` in templates). */
  readonly target: Target;
  /** The root project's name (`model.package_name` of its own nodes). */
  readonly projectName?: string;
  /** The project file's `flags:` (dbt's behaviour flags, read by `adapter.behavior`). */
  readonly projectFlags?: Readonly<Record<string, unknown>>;
  readonly databasePath: string;
  readonly log: (message: string) => void;
  /** Where log() without info=True goes (dbt logs it at debug level: shown with --debug); absent: dropped. */
  readonly debug?: (message: string) => void;
  /** Where print() goes (dbt prints it to stdout as it is, even with --quiet; --no-print silences it); absent: dropped. */
  readonly print?: (text: string) => void;
  /** dbt's `graph` variable (the manifest's nodes and sources as dicts), built when a template asks; absent (and while parsing): empty. */
  readonly graph?: () => unknown;
  /** The microbatch batch being rendered (`model.batch` in templates). */
  readonly batch?: EventTimeBatch;
  /** env_var() values that win over the process environment (a unit test's overrides.env_vars). */
  readonly envVars?: Readonly<Record<string, string>>;
  /** The first ProjectError thrown by a context function, kept for the message. */
  failure?: Error;
}

// zod/mini: the same validation core as zod with a functional API that bundles to a few
// kilobytes (the classic \`z\` object pulls about 750 KB into every command's start-up).
import en from 'zod/v4/locales/en.js';
import * as z from 'zod/mini';

// zod/mini loads no messages by default: the English ones, as classic zod prints them.
z.config(en());

/** A folder or file name: '' would silently mean the project folder itself. */
const nonEmpty = z.string().check(z.regex(/\S/, 'must not be empty'));
const stringList = z.pipe(
  z.union([nonEmpty, z.array(nonEmpty)], { error: 'expected a folder name or a list of folder names' }),
  z.transform((v: string | string[]) => (typeof v === 'string' ? [v] : v)),
);
const configTree = z.record(z.string(), z.unknown());

const strings = z.array(z.string());
const stringOrStrings = z.union([z.string(), strings], { error: 'expected a string or a list of strings' });
const mapping = z.record(z.string(), z.unknown());

/**
 * The keys dbt's dbt_project.yml accepts that mini-dbt accepts and does not act on, each with the
 * type dbt checks (dbt-core 1.11's Project contract, dbt/contracts/project.py, and its project
 * JSON schema; dbt Fusion's DbtProject adds `sync`). Every one may be null, as dbt allows.
 */
const ignoredKeys = {
  version: z.union([z.string(), z.number()], { error: 'expected a version string' }),
  'config-version': z.int(),
  'project-root': z.string(),
  profile: z.string(),
  'analysis-paths': strings,
  'snapshot-paths': strings,
  'docs-paths': strings,
  'asset-paths': strings,
  'function-paths': strings,
  'clean-targets': strings,
  'log-path': z.string(),
  'packages-install-path': z.string(),
  quoting: z.record(z.string(), z.union([z.boolean(), z.string()], { error: 'expected true, false or a Jinja string' })),
  'on-run-start': stringOrStrings,
  'on-run-end': stringOrStrings,
  'require-dbt-version': stringOrStrings,
  dispatch: z.array(z.object({ macro_namespace: z.string(), search_order: strings }), {
    error: 'expected a list of {macro_namespace, search_order} entries',
  }),
  snapshots: mapping,
  analyses: mapping,
  sources: mapping,
  unit_tests: mapping,
  metrics: mapping,
  'semantic-models': mapping,
  'saved-queries': mapping,
  exposures: mapping,
  functions: mapping,
  packages: z.array(z.unknown()),
  'query-comment': z.union([z.string(), mapping], { error: 'expected a string or a mapping (comment, append, job-label)' }),
  'restrict-access': z.boolean(),
  'dbt-cloud': mapping,
  flags: mapping,
  sync: mapping,
} as const;

/** Keys dbt_project.yml may carry that mini-dbt accepts and does not act on. */
export const IGNORED_PROJECT_KEYS = Object.keys(ignoredKeys);

export const projectFileSchema = z.strictObject({
  name: z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a letter or underscore followed by letters, digits or underscores')),
  'model-paths': z.optional(stringList),
  'seed-paths': z.optional(stringList),
  // dbt's deprecated names of model-paths and seed-paths, still read when the new name is absent.
  'source-paths': z.optional(stringList),
  'data-paths': z.optional(stringList),
  'macro-paths': z.optional(stringList),
  'test-paths': z.optional(stringList),
  'target-path': z.optional(nonEmpty),
  vars: z.nullish(z.record(z.string(), z.unknown())),
  models: z.nullish(configTree),
  seeds: z.nullish(configTree),
  data_tests: z.nullish(configTree),
  tests: z.nullish(configTree),
  database: z.optional(nonEmpty),
  'busy-timeout': z.optional(z.int().check(z.nonnegative())),
  ...(Object.fromEntries(Object.entries(ignoredKeys).map(([k, type]) => [k, z.nullish(type)])) as {
    [K in keyof typeof ignoredKeys]: z.ZodMiniOptional<z.ZodMiniNullable<(typeof ignoredKeys)[K]>>;
  }),
});

export type ProjectFile = z.infer<typeof projectFileSchema>;

export const PROJECT_FILE_KEYS: readonly string[] = Object.keys(projectFileSchema.shape);

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

/** Keys dbt_project.yml may carry that mini-dbt accepts and ignores. */
export const IGNORED_PROJECT_KEYS = [
  'version', 'config-version', 'profile', 'require-dbt-version', 'clean-targets', 'analysis-paths',
  'snapshot-paths', 'docs-paths', 'asset-paths', 'packages-install-path', 'log-path', 'quoting',
  'on-run-start', 'on-run-end', 'dispatch', 'query-comment', 'restrict-access', 'flags', 'snapshots',
  'analyses', 'sources', 'exposures', 'metrics', 'semantic-models', 'saved-queries',
] as const;

export const projectFileSchema = z.strictObject({
  name: z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a letter or underscore followed by letters, digits or underscores')),
  'model-paths': z.optional(stringList),
  'seed-paths': z.optional(stringList),
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
  ...Object.fromEntries(IGNORED_PROJECT_KEYS.map((k) => [k, z.optional(z.unknown())])),
});

export type ProjectFile = z.infer<typeof projectFileSchema>;

export const PROJECT_FILE_KEYS: readonly string[] = Object.keys(projectFileSchema.shape);

import { z } from 'zod';

const stringList = z
  .union([z.string(), z.array(z.string())], { error: 'expected a folder name or a list of folder names' })
  .transform((v) => (typeof v === 'string' ? [v] : v));
const configTree = z.record(z.string(), z.unknown());

/** Keys dbt_project.yml may carry that mini-dbt accepts and ignores. */
export const IGNORED_PROJECT_KEYS = [
  'version', 'config-version', 'profile', 'require-dbt-version', 'clean-targets', 'analysis-paths',
  'snapshot-paths', 'docs-paths', 'asset-paths', 'packages-install-path', 'log-path', 'quoting',
  'on-run-start', 'on-run-end', 'dispatch', 'query-comment', 'restrict-access', 'flags', 'snapshots',
  'analyses', 'sources', 'exposures', 'metrics', 'semantic-models', 'saved-queries',
] as const;

export const projectFileSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a letter or underscore followed by letters, digits or underscores'),
  'model-paths': stringList.optional(),
  'seed-paths': stringList.optional(),
  'macro-paths': stringList.optional(),
  'test-paths': stringList.optional(),
  'target-path': z.string().optional(),
  vars: z.record(z.string(), z.unknown()).nullish(),
  models: configTree.nullish(),
  seeds: configTree.nullish(),
  data_tests: configTree.nullish(),
  tests: configTree.nullish(),
  database: z.string().optional(),
  'busy-timeout': z.number().int().nonnegative().optional(),
  ...Object.fromEntries(IGNORED_PROJECT_KEYS.map((k) => [k, z.unknown().optional()])),
});

export type ProjectFile = z.infer<typeof projectFileSchema>;

export const PROJECT_FILE_KEYS: readonly string[] = Object.keys(projectFileSchema.shape);

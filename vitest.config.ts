import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two workers on the 2-core machines we run on (vitest's default leaves one core idle).
    maxWorkers: 2,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two workers on the 2-core machines we run on (vitest's default leaves one core idle).
    maxWorkers: 2,
    // No fresh module graph per file: each worker imports src/ once, not once per file
    // (with isolation, imports took a third of the unit tests' time). A file's env
    // changes and spies are undone after it (test/support/per-file-state.ts).
    isolate: false,
    setupFiles: ['test/support/per-file-state.ts'],
    globalSetup: ['test/support/pg-global-setup.ts'],
  },
});

import { defineConfig } from 'vitest/config';
import { HeavyFilesFirst } from './test/support/heavy-files-first.js';

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
    // The longest files start first, so the run does not end on one worker (test/support/heavy-files-first.ts).
    sequence: { sequencer: HeavyFilesFirst },
    setupFiles: ['test/support/per-file-state.ts'],
    globalSetup: ['test/support/pg-global-setup.ts'],
  },
});

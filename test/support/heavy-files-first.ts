import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`): the
 * longest first, so the run ends on short files and both workers finish
 * together. vitest hands the next file to whichever worker is free, in this
 * order; its own order is by the durations it cached from the last run, else
 * by file size, and CI (`npm ci`, a fresh node_modules) has no cache: a
 * 2 KB file that runs 160 CLI cases for 47 s then started last, alone on one
 * worker while the other sat idle.
 *
 * A file's weight is the larger of its seconds in KNOWN_SECONDS (a full run
 * on the 2-core machine; refresh when a file's time changes much: `npx
 * vitest run --reporter=json --outputFile=times.json`) and its duration in
 * vitest's cache (this machine's last run of it, 0 when skipped or absent:
 * the larger, since a run that failed early or filtered tests out records
 * a short one). Files of equal weight (unlisted, uncached: all under ~4 s)
 * go larger first.
 */
const KNOWN_SECONDS: Readonly<Record<string, number>> = {
  'test/integration/bad-input-catalogue.test.ts': 19,
  'test/conformance/microbatch-batches.test.ts': 18,
  'test/integration/crash-safety-pg.test.ts': 17,
  'test/integration/internal-errors.test.ts': 14,
  'test/conformance/singular-and-generic-tests.test.ts': 12,
  'test/integration/crash-safety.test.ts': 12,
  'test/conformance/constraints.test.ts': 12,
  'test/conformance/unit-tests.test.ts': 11,
  'test/conformance/defer-state.test.ts': 9.9,
  'test/conformance/basic-materializations.test.ts': 9.9,
  'test/conformance/incremental-unique-key.test.ts': 8.4,
  'test/integration/pg-toolkit.test.ts': 7.6,
  'test/integration/pg-concurrency.test.ts': 7.3,
  'test/conformance/reserved-tables-guard.test.ts': 7.2,
  'test/integration/carried-verdicts.test.ts': 7.0,
  'test/conformance/grants.test.ts': 6.7,
  'test/integration/dbt-cli-flags.test.ts': 6.6,
  'test/conformance/dbt-clone.test.ts': 6.5,
  'test/conformance/changing-relation-type.test.ts': 6.3,
  'test/integration/empty-arguments.test.ts': 6.1,
  'test/integration/ls-answer.test.ts': 5.8,
  'test/conformance/snapshot-timestamp.test.ts': 5.5,
  'test/integration/docs-site.test.ts': 5.5,
  'test/conformance/query-comment.test.ts': 5.4,
  'test/conformance/show.test.ts': 5.3,
  'test/integration/replay.test.ts': 5.2,
  'test/property/shared-template-code.test.ts': 5.2,
  'test/conformance/source-freshness.test.ts': 5.2,
  'test/conformance/microbatch-failures-and-retry.test.ts': 5.0,
  'test/property/incremental-properties.test.ts': 5.0,
  'test/conformance/packages-and-dispatch.test.ts': 4.9,
  'test/conformance/snapshot-configs.test.ts': 4.8,
  'test/integration/concurrency.test.ts': 4.7,
  'test/integration/checked-dates.test.ts': 4.4,
  'test/conformance/model-hooks-runtime.test.ts': 4.3,
  'test/conformance/empty-flag.test.ts': 4.2,
  'test/conformance/snapshot-check-cols.test.ts': 4.0,
  'test/unit/parse/graph-cache.test.ts': 4.0,
  'test/conformance/profiles-and-schemas.test.ts': 4.0,
  'test/conformance/docs-snapshot-page.test.ts': 4.0,
  'test/integration/pg-bad-input.test.ts': 4.0,
  'test/conformance/unit-tests-adapter.test.ts': 4.0,
  'test/integration/pg-replay-scratch.test.ts': 3.9,
  'test/conformance/store-failures-as.test.ts': 3.9,
  'test/conformance/model-versions.test.ts': 3.9,
  'test/conformance/sql-header.test.ts': 3.9,
  'test/conformance/microbatch-inputs-and-context.test.ts': 3.9,
};

export class HeavyFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weighed = files.map((spec) => {
      const path = relative(root, spec.moduleId).split('\\').join('/');
      const key = `${spec.project.name}:${path}`;
      const cached = this.ctx.cache.getFileTestResults(key)?.duration ?? 0;
      const ms = Math.max(cached, (KNOWN_SECONDS[path] ?? 0) * 1000);
      return { spec, ms, size: this.ctx.cache.getFileStats(key)?.size ?? 0 };
    });
    weighed.sort((a, b) => b.ms - a.ms || b.size - a.size);
    return weighed.map((w) => w.spec);
  }
}

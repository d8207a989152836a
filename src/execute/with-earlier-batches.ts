import type { RunContext } from '../invocation/run-context.js';
import type { BatchResults } from '../state/node-result.js';

/**
 * A retried microbatch model's batch_results, as dbt's merge_batch_results
 * writes them: this run's batches, then the ones that succeeded in the
 * retried invocation (`retry` reran only the failed ones). The status is
 * decided on this run's batches alone, before this.
 */
export function withEarlierBatches(results: BatchResults, context: RunContext, uniqueId: string): BatchResults {
  const earlier = context.retrySucceeded?.get(uniqueId);
  if (!earlier || earlier.length === 0) return results;
  return { ...results, successful: [...results.successful, ...earlier.map((w) => [w.start, w.end] as const)] };
}

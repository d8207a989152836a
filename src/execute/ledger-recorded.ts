/** Errors whose failure rows are already in the run ledger (microbatch batches record their own). */
const recorded = new WeakSet<object>();

export function markLedgerRecorded<E extends Error>(error: E): E {
  recorded.add(error);
  return error;
}

export function isLedgerRecorded(error: unknown): boolean {
  return typeof error === 'object' && error !== null && recorded.has(error);
}

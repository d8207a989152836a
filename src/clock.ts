/**
 * The only module that reads the wall clock. Core logic takes the run date
 * (as_of) as an input; the clock is only for timings and audit timestamps.
 */
export function now(): Date {
  return new Date();
}

export function nowIso(): string {
  return now().toISOString();
}

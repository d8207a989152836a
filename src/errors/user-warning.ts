/**
 * One-line warnings about the user's files that do not stop the command (a
 * corrupt cache rebuilt, a FIFO skipped): printed on stderr as `Warning: ...`
 * by default. The programmatic API and tests can collect them instead.
 */
export type WarningSink = (message: string, event?: string) => void;

const toStderr: WarningSink = (message) => {
  process.stderr.write(`Warning: ${message}\n`);
};

let sink: WarningSink = toStderr;

/** `event`: dbt's name of the warning, where it has one (`--warn-error-options '{silence: [Name]}'` silences it). */
export function warnUser(message: string, event?: string): void {
  sink(message, event);
}

/** Send warnings to `next` until the returned function is called. */
export function collectUserWarnings(next: WarningSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}

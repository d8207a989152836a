/** The lesson's own lines: plain text for a reader (no log timestamps), to stdout. */
export function out(text = ''): void {
  process.stdout.write(`${text}\n`);
}

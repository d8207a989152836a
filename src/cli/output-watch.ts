/**
 * Whether the CLI wrote anything to stdout or stderr so far: `ls` keeps its
 * output for the bin to answer with next time (parse/ls-answer-cache.ts)
 * only when its listing is all it printed (a warning, on stderr or as a
 * --log-format json line on stdout, would not be printed again).
 * main.ts starts the watch before the command line is parsed.
 */
let writes: number | undefined;

/** Count every write to stdout and stderr from now on. */
export function watchOutput(): void {
  if (writes !== undefined) return;
  writes = 0;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write;
    stream.write = function counted(this: NodeJS.WriteStream, ...args: Parameters<typeof write>): boolean {
      writes = (writes ?? 0) + 1;
      return write.apply(this, args);
    } as typeof write;
  }
}

/** How many writes there were since the watch started; undefined when it was not started (a caller inside another program). */
export function outputWrites(): number | undefined {
  return writes;
}

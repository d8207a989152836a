/**
 * Lanes for CLI-bound tests that run concurrently (it.concurrent): at most
 * `lanes` bodies at once, so two CLI child processes fill the machine's two
 * cores without a file starting a dozen. A body may take every lane
 * (`width` = lanes) to run alone, e.g. one that sets process.env, which a CLI
 * spawned beside it would inherit.
 *   const lane = cliLanes(2);
 *   it.concurrent.for(cases)('%s', async (c, { expect }) => lane(async () => { ... }));
 */
export function cliLanes(lanes = 2): <T>(body: () => Promise<T>, width?: number) => Promise<T> {
  let free = lanes;
  const waiting: (() => void)[] = [];
  return async (body, width = 1) => {
    while (free < width) await new Promise<void>((wake) => waiting.push(wake));
    free -= width;
    try {
      return await body();
    } finally {
      free += width;
      for (const wake of waiting.splice(0)) wake();
    }
  };
}

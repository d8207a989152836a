import { createInterface } from 'node:readline/promises';
import { ProjectError } from '../errors/project-error.js';

/**
 * The reason for a backfill: the flag, else asked on a terminal. A script
 * (stdin not a TTY) without --reason is refused, so no backfill goes
 * unexplained in the ledger; or, given `scriptDefault` (`run --vars
 * '{start, end}'`, which scripts ran before it asked), that is the reason.
 */
export async function askReason(given: string | undefined, what: string, options: { readonly scriptDefault?: string } = {}): Promise<string> {
  if (given !== undefined && given.trim() !== '') return given.trim();
  if (given !== undefined) throw new ProjectError('--reason is empty', { hint: '--reason "refunds landed after the 3-day lookback"' });
  if (!process.stdin.isTTY && options.scriptDefault !== undefined) return options.scriptDefault;
  if (!process.stdin.isTTY) {
    throw new ProjectError(`${what} needs --reason "..." (it is recorded in the run ledger); refused because stdin is not a terminal`, {
      hint: '--reason "refunds landed after the 3-day lookback"',
    });
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = (await rl.question(`Why this ${what}? (recorded in the run ledger) `)).trim();
      if (answer !== '') return answer;
    }
  } finally {
    rl.close();
  }
  throw new ProjectError(`${what} refused: no reason given`);
}

/**
 * Write the Brightcart raw_orders feed as CSV.
 *
 *   node dist/scripts/generate-feed.js [--seed N] [--out PATH] [--start YYYY-MM-DD] [--end YYYY-MM-DD]
 *
 * Defaults: the reference seed, seeds/raw_orders.csv relative to the current
 * directory, 2026-09-01 to 2026-10-31.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_FEED_SEED, feedToCsv, generateFeed } from '../src/feed/generate-feed.js';

const USAGE = 'usage: generate-feed [--seed N] [--out PATH] [--start YYYY-MM-DD] [--end YYYY-MM-DD]';

function main(argv: string[]): number {
  let values: { seed?: string; out?: string; start?: string; end?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        seed: { type: 'string' },
        out: { type: 'string' },
        start: { type: 'string' },
        end: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  let seed = DEFAULT_FEED_SEED;
  if (values.seed !== undefined) {
    if (!/^-?\d+$/.test(values.seed.trim())) {
      process.stderr.write(`--seed must be an integer, got ${JSON.stringify(values.seed)}\n${USAGE}\n`);
      return 2;
    }
    seed = Number(values.seed);
  }
  const out = values.out ?? 'seeds/raw_orders.csv';

  let rows;
  try {
    rows = generateFeed({ seed, start: values.start, end: values.end });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const path = resolve(process.cwd(), out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, feedToCsv(rows), 'utf8');
  const orders = new Set(rows.map((r) => r.order_id)).size;
  process.stdout.write(`wrote ${rows.length} rows (${orders} orders) to ${out}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));

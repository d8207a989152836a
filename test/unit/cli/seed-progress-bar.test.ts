import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/state/node-result.js';
import { withSeedProgressBar } from '../../../src/cli/seed-progress-bar.js';

/** A stream that says it is a terminal, recording what is drawn on it. */
function terminal(): NodeJS.WriteStream & { text(): string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { text(): string };
  let drawn = '';
  Object.assign(stream, {
    isTTY: true,
    columns: 100,
    write: (chunk: string) => ((drawn += chunk), true),
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    text: () => drawn,
  });
  return stream;
}

const MB = 1 << 20;
const progress = (done: number, total: number, stage: 'load' | 'check' | 'index' = 'load'): RunEvent => ({ type: 'progress', uniqueId: 'seed.p.raw', name: 'raw_orders', stage, done, total });

describe('the seed progress bar', () => {
  it('draws on a terminal for a large seed, passes every other event through, and is gone before the result line', () => {
    const printed: string[] = [];
    const stream = terminal();
    const onEvent = withSeedProgressBar((e) => printed.push(e.type), stream);
    onEvent({ type: 'start', index: 1, total: 1, description: 'seed file main.raw_orders', uniqueId: 'seed.p.raw' });
    onEvent(progress(10 * MB, 51 * MB));
    onEvent(progress(51 * MB, 51 * MB));
    onEvent(progress(0, 0, 'index'));
    expect(stream.text()).toMatch(/raw_orders: loading \|.*\| \d+\/51 MB/);
    onEvent({ type: 'log', message: 'x' });
    expect(stream.text()).not.toContain('\u001b[?25h'); // a log line leaves the bar up
    onEvent({ type: 'start', index: 1, total: 1, description: 'sql view model main.stg', uniqueId: 'model.p.stg' });
    expect(stream.text()).toContain('\u001b[?25h'); // the next node's line: the bar is stopped and the cursor shown again
    expect(printed).toEqual(['start', 'log', 'start']);
  });

  it('stays silent for a small seed, and everywhere but a terminal', () => {
    const stream = terminal();
    const onEvent = withSeedProgressBar(() => undefined, stream);
    onEvent(progress(1 * MB, 2 * MB));
    expect(stream.text()).toBe('');
    const print = (_e: RunEvent) => undefined;
    const pipe = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
    expect(withSeedProgressBar(print, pipe)).toBe(print);
  });
});

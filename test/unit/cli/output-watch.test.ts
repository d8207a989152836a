import { describe, expect, it } from 'vitest';
import { outputWrites, watchOutput } from '../../../src/cli/output-watch.js';

describe('the output watch (ls keeps its answer only when its listing is all it printed)', () => {
  it('knows nothing before it starts, then counts each write to stdout and stderr', () => {
    expect(outputWrites()).toBeUndefined();
    watchOutput();
    expect(outputWrites()).toBe(0);
    process.stderr.write('');
    process.stdout.write('');
    expect(outputWrites()).toBe(2);
    watchOutput(); // started once: writes are not counted twice
    process.stderr.write('');
    expect(outputWrites()).toBe(3);
  });
});

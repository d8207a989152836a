import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../../src/invocation/shell-word.js';

describe('shellWord', () => {
  it('leaves plain values as they are', () => {
    for (const v of ['2026-09-03', 'daily_revenue', '50044,50071', 'a/b.sql', '12:00']) expect(shellWord(v)).toBe(v);
  });

  it('quotes what a shell would split or expand, and the shell gives the value back', () => {
    for (const v of ['2026-03-02 06:00:00', 'a"b', 'x$HOME', 'back`tick`', 'it\'s', 'a\\b', '']) {
      const word = shellWord(v);
      expect(execFileSync('sh', ['-c', `printf %s ${word}`], { encoding: 'utf8' })).toBe(v);
    }
  });
});

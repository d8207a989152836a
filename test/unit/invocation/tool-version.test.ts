import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINI_DBT_VERSION } from '../../../src/invocation/tool-version.js';

describe('the tool version', () => {
  it('is package.json\'s (kept as a constant so --version reads no file)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(MINI_DBT_VERSION).toBe(pkg.version);
  });
});

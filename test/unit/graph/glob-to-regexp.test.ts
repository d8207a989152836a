import { describe, expect, it } from 'vitest';
import { globToRegExp, hasGlobChars } from '../../../src/graph/glob-to-regexp.js';

describe('globToRegExp', () => {
  it('matches like fnmatch: * crosses dots, everything else is literal', () => {
    expect(globToRegExp('stg_*').test('stg_orders')).toBe(true);
    expect(globToRegExp('*.orders').test('a.b.orders')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
    expect(globToRegExp('stg_?rders').test('stg_orders')).toBe(true);
    expect(globToRegExp('x(1)+').test('x(1)+')).toBe(true);
  });

  it('supports character classes and their negation', () => {
    expect(globToRegExp('v[12]').test('v1')).toBe(true);
    expect(globToRegExp('v[!12]').test('v1')).toBe(false);
    expect(globToRegExp('v[!12]').test('v3')).toBe(true);
    expect(globToRegExp('v[').test('v[')).toBe(true);
  });

  it('keeps * and ? within a segment for paths; ** crosses them', () => {
    expect(globToRegExp('models/*', { paths: true }).test('models/marts/a.sql')).toBe(false);
    expect(globToRegExp('models/**/a.sql', { paths: true }).test('models/marts/x/a.sql')).toBe(true);
    expect(globToRegExp('models/**/a.sql', { paths: true }).test('models/a.sql')).toBe(true);
  });

  it('detects wildcards', () => {
    expect(hasGlobChars('a*')).toBe(true);
    expect(hasGlobChars('a.b')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { pythonRegex } from '../../../../src/compile/jinja/python-regex.js';
import { reModule } from '../../../../src/compile/jinja/python-re-module.js';

type Re = {
  findall(p: string, t: string, f?: unknown): unknown[];
  sub(p: string, r: string, t: string, c?: unknown, f?: unknown): string;
  search(p: string, t: string, f?: unknown): { group(i?: number): string | null } | null;
  compile(p: string, f?: unknown): { findall(t: string): unknown[] };
  IGNORECASE: number;
  VERBOSE: number;
};

describe("modules.re with Python's flags", () => {
  const re = reModule() as unknown as Re;

  it('reads inline (?ix) flags: case-insensitive, verbose whitespace and comments dropped (not in classes or escaped)', () => {
    const pattern = `(?ix)
      from \\s+ ([a-z_]+)   # the table
      [ ]? \\#?`;
    expect(pythonRegex(pattern, 0).flags).toBe('i');
    expect(re.findall(pattern, 'select * FROM Orders join x from items')).toEqual(['Orders', 'items']);
  });

  it('takes the flags argument (positional or keyword), named groups, and compile()', () => {
    expect(re.findall('a+', 'aAb', re.IGNORECASE)).toEqual(['aA']);
    expect(re.sub('x', '-', 'xXx', { count: 1, flags: re.IGNORECASE })).toBe('-Xx');
    expect(re.search('(?P<word>b+)', 'aabbb')?.group(1)).toBe('bbb');
    expect(re.compile('\\d+ # digits', re.VERBOSE).findall('a1b22')).toEqual(['1', '22']);
  });
});

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { publicStat, quickStat, type StatReader } from '../../../src/parse/stat-numbers.js';

const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-stat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const numbers = (read: StatReader, path: string) => {
  const out = new Float64Array(6).fill(-1);
  return read(path, out) ? [...out] : 'absent';
};

describe('the numbers of a stat (input stamps)', () => {
  it('reads through the fs binding on this Node, the same numbers as fs.statSync for files, folders and what is absent', () => {
    writeFileSync(join(dir, 'm.sql'), 'select 1 as id');
    mkdirSync(join(dir, 'models'));
    symlinkSync(join(dir, 'models'), join(dir, 'linked'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    symlinkSync(join(dir, 'loop'), join(dir, 'loop'));
    const quick = quickStat(dir);
    expect(quick).not.toBe(publicStat); // the binding is there and agreed on the probe: the bin's quick path is live
    for (const name of ['m.sql', 'models', 'linked', 'dangling', 'loop', 'missing', '.']) {
      expect(numbers(quick, join(dir, name)), name).toEqual(numbers(publicStat, join(dir, name)));
    }
    expect(numbers(publicStat, join(dir, 'm.sql'))).toEqual([1, 14, expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect((numbers(publicStat, join(dir, 'linked')) as number[])[0]).toBe(2);
    expect(numbers(publicStat, join(dir, 'dangling'))).toBe('absent');
    expect(numbers(publicStat, join(dir, 'loop'))).toBe('absent');
  });
});

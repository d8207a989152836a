import { describe, expect, it } from 'vitest';
import { pythonSlice } from '../../../../src/compile/jinja/python-slice.js';
import { join } from 'node:path';
import { loadSession } from '../../../../src/api/session.js';
import { renderModel } from '../../../../src/compile/render-model.js';
import { openWarehouse } from '../../../../src/engine/open-warehouse.js';
import { PARSE_CONTEXT } from '../../../../src/invocation/run-context.js';
import { writeProject } from '../../../support/example-project.js';

describe("x[start:stop:step] as Python's slices", () => {
  it('clamps bounds to the sequence and counts negatives from the end', () => {
    expect(pythonSlice([1, 2], 0, 5, null)).toEqual([1, 2]);
    expect(pythonSlice([1, 2, 3, 4], 1, -1, null)).toEqual([2, 3]);
    expect(pythonSlice([1, 2, 3], -10, null, null)).toEqual([1, 2, 3]);
    expect(pythonSlice([1, 2, 3], 5, 9, null)).toEqual([]);
    expect(pythonSlice([1, 2, 3, 4, 5], null, null, 2)).toEqual([1, 3, 5]);
    expect(pythonSlice([1, 2, 3], null, null, -1)).toEqual([3, 2, 1]);
    expect(pythonSlice([1, 2, 3, 4], 2, 0, -1)).toEqual([3, 2]);
    expect(pythonSlice('abcdef', 1, 3, null)).toBe('bc');
    expect(pythonSlice('abc', null, null, -1)).toBe('cba');
    expect(() => pythonSlice([1], 0, 1, 0)).toThrow('slice step cannot be zero');
  });
});

describe('slices in templates', () => {
  it("a slice past a list's end adds nothing (dbt_project_evaluator's batches), and a string slices to a string", () => {
    const sql = "{% set v = [['a'], ['b']] %}{% set out = [] %}{% for x in v[0:100] %}{% do out.append(x | join(',')) %}{% endfor %}{{ '(' ~ out | join('), (') ~ ')' }} {{ 'abcdef'[1:3] }} {{ [1, 2, 3][::-1] }}";
    const dir = writeProject({ 'project.yml': 'name: p\n', 'models/m.sql': sql });
    const session = loadSession({ projectDir: dir });
    const db = openWarehouse(join(dir, 'warehouse.db'));
    try {
      expect(renderModel(session.manifest, session.manifest.models.get('m')!, { db, incremental: false, run: PARSE_CONTEXT }).sql).toBe('(a), (b) bc [3, 2, 1]');
    } finally {
      db.close();
    }
  });
});

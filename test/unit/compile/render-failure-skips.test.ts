import { describe, expect, it } from 'vitest';
import { captureProject } from '../../../src/parse/capture-project.js';
import { RenderFailureErrors, skipsOfRenderFailures } from '../../../src/compile/render-failure-skips.js';
import { loadProject } from '../../../src/project/load-project.js';
import { writeProject } from '../../support/example-project.js';

describe('skipsOfRenderFailures', () => {
  it('lists every model downstream of a failed one, directly or through others, with the root cause', () => {
    const refs = new Map<string, string[]>([
      ['a', ['raw']],
      ['b', ['a']],
      ['c', ['b', 'raw']],
      ['d', ['raw']],
      ['e', ['c', 'b']],
    ]);
    const skips = skipsOfRenderFailures(refs, new Map([['a', 'model.p.a']]));
    expect(skips).toEqual([
      { name: 'b', causeId: 'model.p.a' },
      { name: 'c', causeId: 'model.p.a' },
      { name: 'e', causeId: 'model.p.a' },
    ]);
  });

  it('lists nothing when nothing failed, and never a model that failed itself', () => {
    const refs = new Map<string, string[]>([['a', []], ['b', ['a']]]);
    expect(skipsOfRenderFailures(refs, new Map())).toEqual([]);
    expect(skipsOfRenderFailures(refs, new Map([['a', 'model.p.a'], ['b', 'model.p.b']]))).toEqual([]);
  });
});

describe('a model that fails to render in pass 1', () => {
  const project = () => loadProject(writeProject({
    'project.yml': 'name: shop\n',
    'seeds/raw.csv': 'id\n1\n',
    'models/a.sql': "select * from {{ ref('raw') }} where {{ no_such_macro() }}",
    'models/b.sql': "select * from {{ ref('a') }}",
    'models/c.sql': "select * from {{ ref('b') }}",
    'models/d.sql': "select * from {{ ref('raw') }}",
  }));

  it('is the one error; its dependents are skipped because of it, never "not found"', () => {
    let thrown: unknown;
    try {
      captureProject(project());
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RenderFailureErrors);
    const error = thrown as RenderFailureErrors;
    expect(error.errors).toHaveLength(1);
    expect(error.format()).toBe([
      "models/a.sql:1: 'no_such_macro' is not a macro or function.",
      '  hint: macros in the macro paths are available in every model without an import',
      'SKIP relation main.b: skipped because model.shop.a failed to render',
      'SKIP relation main.c: skipped because model.shop.a failed to render',
    ].join('\n'));
    expect(error.message).toBe(error.format());
    expect(error.exitCode).toBe(2);
  });
});

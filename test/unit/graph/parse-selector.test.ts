import { describe, expect, it } from 'vitest';
import { ProjectError } from '../../../src/errors/project-error.js';
import { parseSelection, parseSelector } from '../../../src/graph/parse-selector.js';

function error(fn: () => unknown): ProjectError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProjectError);
    return err as ProjectError;
  }
  throw new Error('expected a ProjectError');
}

describe('parseSelector', () => {
  it('reads graph operators and depths', () => {
    expect(parseSelector('x')).toMatchObject({ method: 'fqn', value: 'x', parents: false, children: false, childrensParents: false });
    expect(parseSelector('+x')).toMatchObject({ parents: true, parentsDepth: undefined, children: false });
    expect(parseSelector('2+x')).toMatchObject({ parents: true, parentsDepth: 2, value: 'x' });
    expect(parseSelector('x+')).toMatchObject({ children: true, childrenDepth: undefined });
    expect(parseSelector('x+1')).toMatchObject({ children: true, childrenDepth: 1, value: 'x' });
    expect(parseSelector('@x')).toMatchObject({ childrensParents: true, value: 'x' });
    expect(parseSelector('3+tag:nightly+2')).toMatchObject({
      method: 'tag',
      value: 'nightly',
      parentsDepth: 3,
      childrenDepth: 2,
      prefix: '3+tag:',
      suffix: '+2',
    });
  });

  it('infers the method from the value', () => {
    expect(parseSelector('models/marts')).toMatchObject({ method: 'path', methodInferred: true });
    expect(parseSelector('daily_revenue.sql')).toMatchObject({ method: 'file', methodInferred: true });
    expect(parseSelector('raw_orders.csv')).toMatchObject({ method: 'file' });
    expect(parseSelector('brightcart.marts')).toMatchObject({ method: 'fqn', value: 'brightcart.marts' });
    expect(parseSelector('fqn:stg_*')).toMatchObject({ method: 'fqn', methodInferred: false, value: 'stg_*' });
  });

  it('reads config keys', () => {
    expect(parseSelector('config.materialized:incremental')).toMatchObject({
      method: 'config',
      methodArgs: ['materialized'],
      value: 'incremental',
    });
    expect(parseSelector('config.meta.owner:ana')).toMatchObject({ methodArgs: ['meta', 'owner'] });
  });

  it.each(['+', '@', 'a++b', '++x', 'x++', 'tag:', '@daily_revenue+', 'config:table', 'source:a.b.c.d', 'x@y', '2+'])(
    'rejects the malformed selector %s',
    (raw) => {
      const err = error(() => parseSelector(raw));
      expect(err.message).toBe(`malformed selector '${raw}'`);
      expect(err.hint).toBeTruthy();
      expect(err.exitCode).toBe(2);
    },
  );

  it('reads a leading number as a depth only before a +, so names may start with a digit', () => {
    expect(parseSelector('2023_orders+')).toMatchObject({ value: '2023_orders', parents: false, children: true });
    expect(parseSelector('2+orders')).toMatchObject({ value: 'orders', parents: true, parentsDepth: 2 });
    expect(error(() => parseSelector('@x+')).hint).toContain('incompatible');
  });

  it('rejects unknown methods, listing the valid ones', () => {
    const err = error(() => parseSelector('tga:nightly'));
    expect(err.message).toBe("unknown selector method 'tga' in 'tga:nightly'");
    expect(err.hint).toContain("did you mean 'tag'?");
    expect(err.hint).toContain('valid methods: access, config.<key>, exposure, file, fqn, group, package, path, resource_type, result, source, state, tag');
    expect(error(() => parseSelector('tag.x:y')).message).toContain("unknown selector method 'tag.x'");
  });

  it('rejects unknown resource types', () => {
    const err = error(() => parseSelector('resource_type:modle'));
    expect(err.message).toBe("unknown resource type 'modle' in 'resource_type:modle'");
    expect(err.hint).toContain("did you mean 'model'?");
  });
});

describe('parseSelection', () => {
  it('splits values on whitespace and tokens on commas', () => {
    const parsed = parseSelection(['a  b,c', ' d ']);
    expect(parsed.map((token) => token.map((c) => c.value))).toEqual([['a'], ['b', 'c'], ['d']]);
    expect(parseSelection(['', '   '])).toEqual([]);
  });

  it('rejects empty parts between commas', () => {
    expect(error(() => parseSelection(['a,,b'])).message).toBe("malformed selector 'a,,b'");
    expect(error(() => parseSelection(['a,'])).message).toBe("malformed selector 'a,'");
  });
});

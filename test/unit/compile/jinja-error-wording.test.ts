import { FILE_TARGET } from '../../../src/project/target.js';
import { describe, expect, it } from 'vitest';
import { jinjaExpression, jinjaWording } from '../../../src/compile/jinja-error-wording.js';
import { templateError } from '../../../src/compile/template-error.js';
import { JinjaEnvironment } from '../../../src/compile/jinja-environment.js';
import { Relation } from '../../../src/compile/relation.js';
import { PARSE_CONTEXT } from '../../../src/invocation/run-context.js';
import type { RenderState } from '../../../src/compile/render-state.js';

const state = (): RenderState => ({
  modelName: 'm',
  modelPath: 'models/m.sql',
  execute: true,
  vars: () => ({ found: false, value: undefined }),
  varNames: () => [],
  ref: (name) => new Relation(name, 'table'),
  source: (_s, t) => new Relation(t, 'table'),
  self: new Relation('m', 'table'),
  isIncremental: () => false,
  config: {},
  captured: { refs: [], sources: [], config: {} },
  run: { ...PARSE_CONTEXT, invocationId: 'inv' },
  target: FILE_TARGET,
  databasePath: 'w.db',
  log: () => undefined,
});

describe('jinjaExpression: what nunjucks failed to call, as the Jinja that was written', () => {
  it.each([
    ['this', 'this'],
    ['adapter["nope"]', 'adapter.nope'],
    ['a["b"]["c"]', 'a.b.c'],
    ['the return value of (ref)["include"]', 'ref(...).include'],
    ['the return value of (--expression--["keys"])["x"]', '(expression).keys(...).x'],
  ])('%s -> %s', (name, expression) => {
    expect(jinjaExpression(name)).toBe(expression);
  });
});

describe('jinjaWording: JavaScript errors reworded', () => {
  it.each([
    ['Error: Unable to call `adapter["nope"]`, which is undefined or falsey', "'adapter' has no attribute 'nope'"],
    ['Error: Unable to call `this`, which is not a function', "'this' is not callable"],
    ["TypeError: Cannot read properties of undefined (reading 'name')", "'None' has no attribute 'name' (the value is None or not defined)"],
    ["TypeError: Cannot read properties of null (reading '0')", "'NoneType' object is not subscriptable (the value is None or not defined)"],
    ['TypeError: undefined is not iterable (cannot read property Symbol(Symbol.iterator))', "'NoneType' object is not iterable"],
    ['TypeError: t_3.upper is not a function', "'upper' is not callable"],
    ['RangeError: Maximum call stack size exceeded', 'maximum recursion depth exceeded while rendering'],
  ])('%s', (js, jinja) => {
    expect(jinjaWording(js)?.message).toBe(jinja);
  });

  it('leaves a bare unknown name (the "not a macro or function" message) and other errors alone', () => {
    expect(jinjaWording('Error: Unable to call `as_off`, which is undefined or falsey')).toBeUndefined();
    expect(jinjaWording("Required var 'x' not found")).toBeUndefined();
  });
});

describe('templateError on real renders: file:line, never JavaScript', () => {
  const render = (source: string) => {
    const env = new JinjaEnvironment([], { simple: false });
    try {
      env.render('models/m.sql', source, state());
    } catch (err) {
      return (err as { format(): string }).format();
    }
    throw new Error('rendered without an error');
  };

  it.each([
    ['select 1,\n{{ this.nope() }}', "models/m.sql:2:8: 'this' has no attribute 'nope'"],
    ['select 1,\n{{ this() }}', "models/m.sql:2:8: 'this' is not callable"],
    ['select {{ return(1) }}', "models/m.sql:1: 'return' outside macro"],
    ["select\n  {{ none|first }}", "'NoneType' object is not subscriptable"],
  ])('%s', (source, message) => {
    const text = render(source);
    expect(text).toContain(message);
    expect(text).not.toMatch(/TypeError|undefined|\[object Object\]/);
  });

  it('a wrapped JavaScript error from a context function is worded too', () => {
    const cause = Object.assign(new TypeError("Cannot read properties of undefined (reading 'alias')"), {});
    expect(templateError(new Error('(m.sql)\n  boom'), 'm.sql', cause).format()).toBe("m.sql: 'None' has no attribute 'alias' (the value is None or not defined)");
  });
});

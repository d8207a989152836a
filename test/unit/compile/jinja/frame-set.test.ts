/**
 * Frame.set without the split (frame-set.ts) sets what nunjucks' own set sets: a write that
 * resolves up lands in the frame that holds the name (unless a frame between isolates writes),
 * a new name in the frame written to, a dotted name as nested objects.
 */
import { describe, expect, it } from 'vitest';
import { installFrameSet } from '../../../../src/compile/jinja/frame-set.js';
import { internals } from '../../../../src/compile/jinja/nunjucks-internals.js';

interface Frame {
  variables: Record<string, unknown>;
  set(name: string, value: unknown, resolveUp?: boolean): void;
  push(isolateWrites?: boolean): Frame;
  lookup(name: string): unknown;
}
installFrameSet();
const Frame = (internals.runtime as unknown as { Frame: new () => Frame }).Frame;

describe('Frame.set', () => {
  it('resolving up, writes where the name is held, through frames that do not isolate writes', () => {
    const top = new Frame();
    top.set('x', 1);
    const inner = top.push().push();
    inner.set('x', 2, true);
    expect(top.lookup('x')).toBe(2);
    expect(Object.keys(inner.variables)).toEqual([]);
    inner.set('y', 3, true);
    expect(inner.variables.y).toBe(3);
    expect(top.lookup('y')).toBeUndefined();
  });

  it('stops at a frame that isolates writes, and writes there', () => {
    const top = new Frame();
    top.set('x', 1);
    const isolated = top.push(true);
    isolated.set('x', 5, true);
    expect(isolated.variables.x).toBe(5);
    expect(top.lookup('x')).toBe(1);
  });

  it('without resolving up, writes in its own frame; a dotted name makes nested objects', () => {
    const top = new Frame();
    top.set('x', 1);
    const inner = top.push();
    inner.set('x', 7);
    expect([inner.variables.x, top.lookup('x')]).toEqual([7, 1]);
    inner.set('a.b.c', 4);
    expect(inner.variables.a).toEqual({ b: { c: 4 } });
  });
});

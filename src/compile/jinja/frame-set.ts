import { internals } from './nunjucks-internals.js';

interface Frame {
  variables: Record<string, unknown>;
  resolve(name: string, forWrite: boolean): Frame | undefined;
  set(name: string, value: unknown, resolveUp?: boolean): void;
}

let patched = false;

/**
 * nunjucks' Frame.set splits every name at its dots (a dotted name makes
 * nested objects), so each loop variable, macro parameter and `set` made an
 * array. A name without a dot is set as nunjucks sets it, without the split;
 * a dotted name goes to nunjucks' own set.
 */
export function installFrameSet(): void {
  if (patched) return;
  patched = true;
  const proto = (internals.runtime as unknown as { Frame: { prototype: Frame } }).Frame.prototype;
  const dotted = proto.set;
  proto.set = function set(this: Frame, name: string, value: unknown, resolveUp?: boolean): void {
    if (typeof name !== 'string' || name.includes('.')) {
      dotted.call(this, name, value, resolveUp);
      return;
    }
    if (resolveUp) {
      const frame = this.resolve(name, true);
      if (frame) {
        frame.set(name, value);
        return;
      }
    }
    this.variables[name] = value;
  };
}

import { sequenceItems } from './filters/sequence-items.js';
import { isPlainDict } from './python-repr.js';
import { pyEquals } from './python-truth.js';

const UNSET = Symbol('mini-dbt loop changed: nothing yet');

/**
 * Jinja's `loop` inside a for loop: index, index0, revindex, revindex0,
 * first, last, length, depth, depth0, previtem and nextitem (undefined at
 * the ends), cycle(...) and changed(...). A recursive loop's `loop` is
 * also callable: `loop(children)` renders the loop's body over children,
 * one level deeper.
 */
export class LoopContext {
  index0 = 0;
  private lastChanged: unknown = UNSET;

  constructor(
    private readonly items: readonly unknown[],
    readonly depth: number,
  ) {}

  get index(): number { return this.index0 + 1; }
  get revindex(): number { return this.items.length - this.index0; }
  get revindex0(): number { return this.items.length - this.index0 - 1; }
  get first(): boolean { return this.index0 === 0; }
  get last(): boolean { return this.index0 === this.items.length - 1; }
  get length(): number { return this.items.length; }
  get depth0(): number { return this.depth - 1; }
  get previtem(): unknown { return this.index0 > 0 ? this.items[this.index0 - 1] : undefined; }
  get nextitem(): unknown { return this.index0 + 1 < this.items.length ? this.items[this.index0 + 1] : undefined; }

  /** The argument at this iteration, round and round: `loop.cycle('odd', 'even')`. */
  cycle(...args: unknown[]): unknown {
    if (args.length === 0) throw new TypeError('no items for cycling given');
    return args[this.index0 % args.length];
  }

  /** Whether the arguments differ from the last call's (true on the first call). */
  changed(...args: unknown[]): boolean {
    if (this.lastChanged !== UNSET && pyEquals(this.lastChanged, args)) return false;
    this.lastChanged = args;
    return true;
  }

  toString(): string {
    return `<LoopContext ${this.index}/${this.length}>`;
  }
}

/** The items a for loop walks: a list's, a string's characters, a dict's keys (none walks nothing). */
export function loopItems(value: unknown): unknown[] {
  return sequenceItems(value);
}

/** What `for k, v in x` walks: a dict's (key, value) pairs (as nunjucks allowed), else x's items. */
export function loopPairs(value: unknown): unknown[] {
  return isPlainDict(value) ? Object.entries(value) : sequenceItems(value);
}

const MEMBERS = ['index', 'index0', 'revindex', 'revindex0', 'first', 'last', 'length', 'depth', 'depth0', 'previtem', 'nextitem', 'cycle', 'changed', 'toString'] as const;

/** The `loop` of a for loop: a LoopContext, or a function carrying its members when the loop is recursive. */
export function makeLoop(items: readonly unknown[], depth: number, recurse: ((items: unknown, depth: number) => string) | null): LoopContext {
  const context = new LoopContext(items, depth);
  if (!recurse) return context;
  const callable = (children: unknown) => recurse(children, depth + 1);
  for (const key of MEMBERS) {
    Object.defineProperty(callable, key, {
      get: () => {
        const member = context[key] as unknown;
        return typeof member === 'function' ? (member as (...a: unknown[]) => unknown).bind(context) : member;
      },
      set: key === 'index0' ? (i: number) => { context.index0 = i; } : undefined,
      configurable: true,
    });
  }
  return callable as unknown as LoopContext;
}

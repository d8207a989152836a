import nunjucks from 'nunjucks';
import { compileShape } from './parameterised-compile.js';
import { parseTemplate, shapeOf, type AstNode, type Shape } from './template-shape.js';
import { MARK_END, MARK_START, movePosition, skeletonOf, type Skeleton } from './template-skeleton.js';

/**
 * Templates that differ only in their literals share one compiled function.
 *
 * nunjucks compiles a template to JavaScript source and runs it through
 * `new Function`; V8 then parses that source, compiles its functions on their
 * first call and runs them as cold bytecode: most of the cost of a template
 * rendered once (a model). Models of a project are mostly written alike
 * (`select ... from {{ ref('orders') }}` in hundreds of files, differing in
 * their names, text and line numbers), so their code differs only in the
 * constants nunjucks writes into it.
 *
 * Here those constants are parameters. The template is parsed (nunjucks'
 * own parser) and its tree walked once: every Literal and TemplateData (the
 * text between tags) becomes a slot `__L[k]`, and so does every node's line
 * and column (which the code stores for error messages), the values
 * collected in walk order; everything else (node types, names, operators,
 * whether a text is empty, the literals whose value the compiler writes
 * into the code itself: dict keys and callee names) makes the template's
 * shape. Three caches:
 *
 *  - by skeleton (template-skeleton.ts: the source with its texts, string
 *    contents and comments masked): a template whose skeleton was seen
 *    before is not parsed at all; its values are the skeleton tree's with
 *    its own texts and strings put back and its positions moved by what
 *    they changed;
 *  - by shape: a template whose shape was seen before costs one call of its
 *    factory with its own values (no transform, no code generation, no
 *    `new Function`, and the shared functions are already compiled and warm);
 *  - by code: a new shape is compiled with its slots as parameters, and its
 *    code is the key of the `new Function('__L', code)` factories, so shapes
 *    that compile alike share one function too. Code is correct by
 *    construction: a template's code is exactly what it compiles to itself.
 *
 * The shape entry is kept only when the compile read no slotted literal's
 * value (it reads them through a trap: a value read by the compiler would
 * have been baked into code the next template of the shape must not get)
 * and compiled no literal that has no slot; otherwise only the code entry
 * serves. A template whose tree holds anything unexpected, or that fails to
 * compile this way, is compiled as nunjucks does (its error is nunjucks'
 * own, with its positions). Templates cannot reach `__L`: names in a
 * template compile to frame and context lookups, never to JavaScript
 * identifiers.
 */

type Factory = (values: readonly unknown[]) => Record<string, unknown>;

/** How a skeleton's slots get a template's values: a constant, a text with markers to fill, or a line (then its column) to move. */
interface Recipe {
  readonly factory: Factory;
  /** Per slot: 0 the constant in `of`, 1 the parts in `of` (text, marker number, text, ...), 2 a line and 3 its column (skeleton positions in `of`). */
  readonly kinds: Uint8Array;
  readonly of: readonly unknown[];
}

/**
 * Entries each cache keeps at most: a project of templates all unlike each
 * other shares nothing, and its keys (a skeleton, a shape, a code: each
 * some times a template's size) would only take memory.
 */
const MAX_ENTRIES = 4096;
/** Templates compiled before sharing is judged (see sharing()). */
const SHARING_TRIAL = 256;

function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size < MAX_ENTRIES) cache.set(key, value);
}

const MARKER = new RegExp(`${MARK_START}(\\d+)${MARK_END}`, 'g');

/** The compiled code of one environment's templates, by skeleton, by shape and by code (see the file comment). */
export class SharedTemplateCode {
  private readonly bySkeleton = new Map<string, Recipe | null>();
  private readonly byShape = new Map<string, Factory>();
  private readonly byCode = new Map<string, Factory>();
  /** Templates compiled with parameters; of them, those whose skeleton or shape was known; and the functions made (for tests and the bench). */
  compiled = 0;
  skeletonHits = 0;
  shapeHits = 0;
  distinct = 0;

  constructor(private readonly env: nunjucks.Environment) {}

  /** `source` (already preprocessed) as a compiled Template; throws what `new nunjucks.Template` throws. */
  template(source: string, path: string): nunjucks.Template {
    const props = this.sharing() ? (this.fromSkeleton(source, path) ?? this.props(source, path)) : null;
    if (!props) return new nunjucks.Template(source, this.env, path, true);
    this.compiled += 1;
    return new nunjucks.Template({ type: 'code', obj: props } as unknown as string, this.env, path, true);
  }

  /**
   * Whether sharing still pays: when a project's templates are all unlike
   * each other (a tenth or fewer shared after the first few hundred), the
   * skeletons, shapes and caches are only work and memory, and nunjucks
   * compiles the rest as it would.
   */
  private sharing(): boolean {
    return this.compiled < SHARING_TRIAL || (this.skeletonHits + this.shapeHits) * 10 > this.compiled;
  }

  /** The template through its skeleton (no parse of its own), or null: parsed as itself. */
  private fromSkeleton(source: string, path: string): Record<string, unknown> | null {
    const skeleton = skeletonOf(source);
    if (!skeleton) return null;
    let recipe = this.bySkeleton.get(skeleton.text);
    if (recipe === undefined) {
      recipe = this.recipe(skeleton, path);
      remember(this.bySkeleton, skeleton.text, recipe);
    } else if (recipe) this.skeletonHits += 1;
    return recipe ? recipe.factory(fill(recipe, skeleton)) : null;
  }

  /**
   * A skeleton's recipe, or null when its tree shows the scan and the parser
   * disagree: every text and string marker must be in exactly one slot of its
   * kind (texts in TemplateData, strings in Literal), comments' in none, and
   * none in the shape itself (a name, a dict key, a callee's name).
   */
  private recipe(skeleton: Skeleton, path: string): Recipe | null {
    let shape: Shape;
    try {
      shape = shapeOf(parseTemplate(this.env, skeleton.text), path);
    } catch {
      return null;
    }
    if (shape.key === null || shape.namesPath || shape.key.includes(MARK_START) || shape.key.includes(MARK_END)) return null;
    const typeOf = new Map<number, string>();
    for (const [node, slot] of shape.slots) typeOf.set(slot, (node as AstNode).typename);
    const seen = new Int32Array(skeleton.cores.length);
    const kinds = new Uint8Array(shape.values.length);
    const of: unknown[] = [];
    for (const line of shape.lines) {
      kinds[line] = 2;
      kinds[line + 1] = 3;
    }
    for (let i = 0; i < shape.values.length; i++) {
      const value = shape.values[i];
      of.push(value);
      if (kinds[i] !== 0) continue;
      if (typeof value !== 'string') {
        if (value !== null && typeof value === 'object') return null; // a regex literal: its body may hold a marker
        continue;
      }
      if (!value.includes(MARK_START) && !value.includes(MARK_END)) continue;
      const parts: (string | number)[] = [];
      let last = 0;
      for (const match of value.matchAll(MARKER)) {
        const k = Number(match[1]);
        const expected = skeleton.kinds[k] === 'text' ? 'TemplateData' : skeleton.kinds[k] === 'string' ? 'Literal' : undefined;
        if (k >= seen.length || typeOf.get(i) !== expected) return null;
        seen[k] += 1;
        parts.push(value.slice(last, match.index), k);
        last = match.index + match[0].length;
      }
      parts.push(value.slice(last));
      if (parts.some((p) => typeof p === 'string' && (p.includes(MARK_START) || p.includes(MARK_END)))) return null;
      kinds[i] = 1;
      of[i] = parts;
    }
    for (let k = 0; k < seen.length; k++) if (seen[k] !== (skeleton.kinds[k] === 'comment' ? 0 : 1)) return null;
    const factory = this.factory(shape, skeleton.text, path, true);
    return factory ? { factory, kinds, of } : null;
  }

  private props(source: string, path: string): Record<string, unknown> | null {
    let shape: Shape;
    try {
      shape = shapeOf(parseTemplate(this.env, source), path);
    } catch {
      return null; // compiled again by nunjucks, for its own error
    }
    if (shape.key === null) return null;
    if (this.byShape.has(shape.key)) this.shapeHits += 1;
    return this.factory(shape, source, path, false)?.(shape.values) ?? null;
  }

  /**
   * The function of a shape: known, or compiled (null when that fails). A
   * compile that read a slotted value gives code for this tree only: it is
   * not kept for the shape, and not given to a skeleton (`shared`).
   */
  private factory(shape: Shape, source: string, path: string, shared: boolean): Factory | null {
    const key = shape.key!;
    const known = this.byShape.get(key);
    if (known) return known;
    let compiled: { code: string; baked: boolean };
    try {
      compiled = compileShape(this.env, shape, source, path);
    } catch {
      return null;
    }
    const { code, baked } = compiled;
    let factory = this.byCode.get(code);
    if (!factory) {
      try {
        factory = new Function('__L', code) as Factory; // eslint-disable-line no-new-func
      } catch {
        return null;
      }
      remember(this.byCode, code, factory);
      this.distinct += 1;
    }
    if (baked) return shared ? null : factory;
    remember(this.byShape, key, factory);
    return factory;
  }
}

/** A template's values for its skeleton's slots: its own texts and strings put in, its own positions. */
function fill(recipe: Recipe, skeleton: Skeleton): unknown[] {
  const { kinds, of } = recipe;
  const values = new Array<unknown>(kinds.length);
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i];
    if (kind === 0) values[i] = of[i];
    else if (kind === 1) {
      const parts = of[i] as readonly (string | number)[];
      let text = '';
      for (let p = 0; p < parts.length; p++) {
        const part = parts[p]!;
        text += typeof part === 'number' ? skeleton.cores[part] : part;
      }
      values[i] = text;
    } else if (kind === 2) {
      movePosition(skeleton, of[i] as number, of[i + 1] as number, values, i);
      i += 1;
    }
  }
  return values;
}

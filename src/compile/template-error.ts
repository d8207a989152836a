import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { findLine } from './find-line.js';

/** A context function's error can name text to look for when nunjucks gives no line (it drops line 1). */
export type NeedleError = Error & { needle?: string };

const LOCATED = /^\(([^)]*)\) \[Line (\d+), Column (\d+)\]\n\s*([\s\S]*)$/;

/**
 * Turn a nunjucks error into a ProjectError with file:line. nunjucks reports
 * parse errors with 1-based lines and runtime errors with 0-based ones.
 */
export function templateError(err: unknown, file: string, cause?: NeedleError, source?: string, callables: readonly string[] = []): ProjectError {
  const raw = err instanceof Error ? err.message : String(err);
  const unknownCall = /Unable to call `([^`]+)`, which is undefined or falsey/.exec(raw);
  if (unknownCall && !cause) {
    // nunjucks' wording, made clear: which name, where, and the closest macro.
    const name = unknownCall[1]!;
    const located = LOCATED.exec(raw);
    const line = located ? Number(located[2]) + 1 : source ? findLine(source, `${name}(`) : undefined;
    return new ProjectError(`'${name}' is not a macro or function.${didYouMeanSuffix(name, callables)}`, {
      location: { file, line },
      hint: 'macros in the macro paths are available in every model without an import',
    });
  }
  const match = LOCATED.exec(raw);
  if (!match) {
    const message = cause?.message ?? raw.replace(/^\([^)]*\)\n?\s*/, '').replace(/^Error: /, '');
    // nunjucks gives no line before the first call of a template: find the refused name (sandbox) or the context function's needle.
    // A refused attribute always records its position, so a refusal without one is on line 1 (which nunjucks leaves out).
    const refused = /access to '([^']+)' is not allowed in templates/.exec(raw)?.[1];
    const needle = cause?.needle ?? refused;
    const line = (needle && source ? findLine(source, needle) : undefined) ?? (refused && !cause ? 1 : undefined);
    return new ProjectError(message, { location: { file, line }, hint: cause instanceof ProjectError ? cause.hint : undefined });
  }
  const [, , lineText, colText, inner] = match;
  const runtime = /^[A-Za-z]*Error: /.test(inner!) || cause !== undefined;
  const line = Number(lineText) + (runtime ? 1 : 0);
  const column = Number(colText) + (runtime ? 1 : 0);
  const message = cause?.message ?? inner!.replace(/^Error: /, '');
  const kind = runtime ? '' : 'template syntax error: ';
  return new ProjectError(`${kind}${message}`, {
    location: { file, line, column },
    hint: cause instanceof ProjectError ? cause.hint : undefined,
  });
}

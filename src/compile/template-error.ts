import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { findLine } from './find-line.js';
import { jinjaWording } from './jinja-error-wording.js';
import { RETURN_OUTSIDE_MACRO } from './jinja/return-value.js';

/** A context function's error can name text to look for when nunjucks gives no line (it drops line 1). */
export type NeedleError = Error & { needle?: string };

const LOCATED = /^\(([^)]*)\) \[Line (\d+), Column (\d+)\]\n\s*([\s\S]*)$/;
/** nunjucks' path prefix when it gives no line. */
const UNLOCATED = /^\([^)]*\)\n?\s*/;

/**
 * Turn a nunjucks error into a ProjectError with file:line. nunjucks reports
 * parse errors with 1-based lines and runtime errors with 0-based ones.
 * JavaScript errors from a render are worded as Jinja would word them
 * (jinja-error-wording.ts), never as JavaScript.
 */
export function templateError(err: unknown, file: string, cause?: NeedleError, source?: string, callables: readonly string[] = []): ProjectError {
  const error = locatedTemplateError(err, file, cause, source, callables);
  // A statement the warehouse refused while rendering (run_query, statement): dbt's "Database Error", not the driver's class name.
  if (!/^SqliteError: /.test(error.message)) return error;
  return new ProjectError(error.message.replace(/^SqliteError: /, 'Database Error: '), { location: error.location, hint: error.hint, exitCode: error.exitCode });
}

function locatedTemplateError(err: unknown, file: string, cause?: NeedleError, source?: string, callables: readonly string[] = []): ProjectError {
  // An error located in another file (an ephemeral model rendered for this one) keeps its own place.
  if (cause instanceof ProjectError && cause.location.file !== undefined && cause.location.file !== file) return cause;
  const raw = err instanceof Error ? err.message : String(err);
  const unknownCall = /Unable to call `([A-Za-z_][A-Za-z0-9_]*)`, which is undefined or falsey/.exec(raw);
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
  // JavaScript's own SyntaxError (compiling what the parser accepted) is never shown bare.
  if (/^SyntaxError: /.test(raw.replace(UNLOCATED, ''))) {
    return new ProjectError(`template syntax error: the template could not be compiled (${raw.replace(UNLOCATED, '').replace(/^SyntaxError: /, '')})`, { location: { file } });
  }
  const reworded = rewordJavaScript(raw, file, cause, source);
  if (reworded) return reworded;
  const match = LOCATED.exec(raw);
  if (!match) {
    const message = cause?.message ?? raw.replace(UNLOCATED, '').replace(/^Error: /, '');
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

/** A return() outside a macro, or a JavaScript error worded as Jinja's; undefined for anything else. */
function rewordJavaScript(raw: string, file: string, cause: NeedleError | undefined, source: string | undefined): ProjectError | undefined {
  if (cause instanceof ProjectError) return undefined;
  const located = LOCATED.exec(raw);
  const inner = located ? located[4]! : raw.replace(UNLOCATED, '');
  const worded = inner.includes(RETURN_OUTSIDE_MACRO)
    ? { message: RETURN_OUTSIDE_MACRO, needle: 'return(' }
    : jinjaWording(cause ? `${cause.name}: ${cause.message}` : inner);
  if (!worded) return undefined;
  if (located) return new ProjectError(worded.message, { location: { file, line: Number(located[2]) + 1, column: Number(located[3]) + 1 } });
  // nunjucks updates its line only at calls, so without one the line is not known: a needle, or no line.
  const line = worded.needle && source ? findLine(source, worded.needle) : undefined;
  return new ProjectError(worded.message, { location: { file, line } });
}

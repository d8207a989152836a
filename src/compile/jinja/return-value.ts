import { internals } from './nunjucks-internals.js';

/** What a `return()` that no macro catches (one in a model, test or hook's own text) reads as. */
export const RETURN_OUTSIDE_MACRO = "'return' outside macro: return(...) ends a {% macro %} and gives its value; it cannot be used in a model's own text";

/** Thrown by `return(value)`; the macro that is running catches it and returns `value`. */
class MacroReturn {
  readonly miniDbtMacroReturn = true;
  constructor(readonly value: unknown) {}
  /** Read only when no macro caught it: nunjucks turns what is thrown into text. */
  toString(): string {
    return RETURN_OUTSIDE_MACRO;
  }
}

const PROLOGUE = /var callerFrame = frame;\n/g;
const EPILOGUE = /(return new runtime\.SafeString\(t_\d+\);\n)\}\);/g;

let patched = false;

/**
 * dbt's `return(value)`: ends the macro and makes the call evaluate to
 * `value` itself (a list, a dict, a number), not to the macro's text, so
 * `{% set cols = get_columns() %}` gets a real list.
 *
 * nunjucks compiles each macro to a function; the compiled code of every
 * template is post-processed so each macro body runs inside
 * `try { ... } catch (MacroReturn) { return value } finally { restore frame }`.
 * The `finally` also keeps nunjucks' frame stack right when anything else is
 * thrown from a macro.
 */
export function installMacroReturn(): void {
  if (patched) return;
  patched = true;
  const { compiler } = internals;
  const original = compiler.compile;
  compiler.compile = function compileWithReturn(this: unknown, ...args: unknown[]): string {
    const code = original.apply(this, args);
    const opened = code.match(PROLOGUE)?.length ?? 0;
    const closed = code.match(EPILOGUE)?.length ?? 0;
    if (opened !== closed) return code; // an unexpected shape: leave nunjucks' code alone
    return code
      .replace(PROLOGUE, 'var callerFrame = frame; try {\n')
      .replace(EPILOGUE, '$1} catch (e) { if (e && e.miniDbtMacroReturn) return e.value; throw e; } finally { frame = callerFrame; }\n});');
  };
}

/** The `return` global. */
export function macroReturn(value: unknown): never {
  throw new MacroReturn(value);
}

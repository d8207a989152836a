/**
 * JavaScript errors that escape a template (from nunjucks' compiled code or
 * a helper), reworded as Jinja and Python would word them: the user wrote
 * Jinja, and "Cannot read properties of undefined" means nothing in Jinja.
 */
export interface JinjaWording {
  readonly message: string;
  /** Text to look for in the template source when the error has no line. */
  readonly needle?: string;
}

/**
 * nunjucks names what it failed to call as `a["b"]`, `the return value of (f)`
 * or `--expression--`; this is the Jinja expression that stands for.
 */
export function jinjaExpression(name: string): string {
  const call = /^the return value of \((.*)\)$/s.exec(name);
  if (call) return `${jinjaExpression(call[1]!)}(...)`;
  const member = /^(.*)\["([^"]*)"\]$/s.exec(name);
  if (member) return `${jinjaExpression(member[1]!)}.${member[2]}`;
  return name === '--expression--' ? '(expression)' : name;
}

const lastName = (expression: string): string => /([A-Za-z_][A-Za-z0-9_]*)\)?$/.exec(expression)?.[1] ?? expression;

/** The Jinja wording of one error message (without nunjucks' path prefix), or undefined to keep it. */
export function jinjaWording(message: string): JinjaWording | undefined {
  const text = message.replace(/^Error: /, '');
  const falsey = /^Unable to call `(.+)`, which is undefined or falsey$/s.exec(text);
  if (falsey) {
    const member = /^(.*)\["([^"]*)"\]$/s.exec(falsey[1]!);
    if (!member) return undefined; // a bare name: "'x' is not a macro or function" (template-error.ts)
    return { message: `'${jinjaExpression(member[1]!)}' has no attribute '${member[2]}'`, needle: `.${member[2]}(` };
  }
  const notFunction = /^Unable to call `(.+)`, which is not a function$/s.exec(text);
  if (notFunction) {
    const expression = jinjaExpression(notFunction[1]!);
    return { message: `'${expression}' is not callable`, needle: `${lastName(expression)}(` };
  }
  const read = /^TypeError: Cannot (?:read|set) properties of (?:null|undefined) \((?:reading|setting) '(.*)'\)$/s.exec(text);
  if (read) {
    const key = read[1]!;
    return /^\d+$/.test(key)
      ? { message: "'NoneType' object is not subscriptable (the value is None or not defined)" }
      : { message: `'None' has no attribute '${key}' (the value is None or not defined)` };
  }
  const notIterable = /^TypeError: (.+?) is not iterable/s.exec(text);
  if (notIterable) {
    const what = /^(?:undefined|null|object null)\b/.test(notIterable[1]!) ? 'NoneType' : lastName(notIterable[1]!);
    return { message: `'${what}' object is not iterable` };
  }
  const notCallable = /^TypeError: (.+) is not a function$/s.exec(text);
  if (notCallable) {
    const name = lastName(notCallable[1]!);
    return { message: `'${name}' is not callable`, needle: `${name}(` };
  }
  if (/^TypeError: Cannot convert undefined or null to object$/.test(text)) return { message: "expected a dict, got 'NoneType' (the value is None or not defined)" };
  if (/^RangeError: Maximum call stack size exceeded$/.test(text)) return { message: 'maximum recursion depth exceeded while rendering' };
  return undefined;
}

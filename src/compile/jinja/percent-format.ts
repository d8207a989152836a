import { pythonRepr, pythonStr } from './python-repr.js';

/** Python's str() and repr(), where they were first defined (see python-repr.ts). */
export { pythonRepr, pythonStr };

const SPEC = /%(?:\(([^)]*)\))?([-+ 0#]*)(\d+|\*)?(?:\.(\d+))?([sdifrxXeEgGc%])/g;

/**
 * printf-style formatting as Python's `'%s and %05.2f' % (a, b)` and Jinja's
 * `format` filter: %s %r %d %i %f %e %g %x %c and %%, flags, width,
 * precision, and `%(name)s` with a mapping.
 */
export function percentFormat(format: string, values: unknown): string {
  const named = values !== null && typeof values === 'object' && !Array.isArray(values) ? (values as Record<string, unknown>) : undefined;
  const list = Array.isArray(values) ? values : [values];
  let next = 0;
  return format.replace(SPEC, (_m, name: string | undefined, flags: string, width: string | undefined, precision: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    const value = name !== undefined && named ? (Object.prototype.hasOwnProperty.call(named, name) ? named[name] : undefined) : named && list.length === 1 && !Array.isArray(values) ? values : list[next++];
    let text: string;
    const num = Number(value);
    const digits = precision === undefined ? undefined : Number(precision);
    switch (conv) {
      case 's': text = pythonStr(value); if (digits !== undefined) text = text.slice(0, digits); break;
      case 'r': text = pythonRepr(value); break;
      case 'd': case 'i': text = String(Math.trunc(num)); break;
      case 'f': text = num.toFixed(digits ?? 6); break;
      case 'e': case 'E': text = num.toExponential(digits ?? 6).replace(/e([+-])(\d)$/, 'e$10$2'); if (conv === 'E') text = text.toUpperCase(); break;
      case 'g': case 'G': text = String(Number(num.toPrecision(digits || 6))); break;
      case 'x': text = Math.trunc(num).toString(16); break;
      case 'X': text = Math.trunc(num).toString(16).toUpperCase(); break;
      case 'c': text = typeof value === 'number' ? String.fromCharCode(value) : String(value); break;
      default: text = String(value);
    }
    if (flags.includes('+') && /[difeEgG]/.test(conv) && num >= 0) text = `+${text}`;
    else if (flags.includes(' ') && /[difeEgG]/.test(conv) && num >= 0) text = ` ${text}`;
    const w = width === undefined || width === '*' ? 0 : Number(width);
    if (text.length < w) {
      if (flags.includes('-')) text = text.padEnd(w);
      else if (flags.includes('0') && /[difeEgGxX]/.test(conv)) {
        const sign = /^[+\- ]/.test(text) ? text[0]! : '';
        text = sign + text.slice(sign.length).padStart(w - sign.length, '0');
      } else text = text.padStart(w);
    }
    return text;
  });
}

import { pythonNumber, pythonRepr, pythonStr } from './python-repr.js';

const SPEC = /^(?:(.)?([<>=^]))?([+\- ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/;

function groupThousands(digits: string, separator: string): string {
  const [whole, fraction] = digits.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** One number formatted by a format spec's type and precision (without sign, fill or width). */
function numberText(n: number, type: string | undefined, precision: number | undefined, alternate: boolean): string {
  const abs = Math.abs(n);
  switch (type) {
    case 'd': case 'n': return String(Math.trunc(abs));
    case 'b': return (alternate ? '0b' : '') + Math.trunc(abs).toString(2);
    case 'o': return (alternate ? '0o' : '') + Math.trunc(abs).toString(8);
    case 'x': return (alternate ? '0x' : '') + Math.trunc(abs).toString(16);
    case 'X': return (alternate ? '0X' : '') + Math.trunc(abs).toString(16).toUpperCase();
    case 'c': return String.fromCodePoint(abs);
    case 'f': case 'F': return abs.toFixed(precision ?? 6);
    case 'e': case 'E': {
      const t = abs.toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
      return type === 'E' ? t.toUpperCase() : t;
    }
    case '%': return `${(abs * 100).toFixed(precision ?? 6)}%`;
    case 'g': case 'G': {
      const t = String(Number(abs.toPrecision(precision || 6)));
      return type === 'G' ? t.toUpperCase() : t;
    }
    default: return precision === undefined ? pythonNumber(abs) : String(Number(abs.toPrecision(precision || 1)));
  }
}

/**
 * Python's format(value, spec) for str.format: `{:>10}`, `{:05d}`,
 * `{:,.2f}`, `{:.1%}`, `{:x}`; text is padded and cut (`{:.3}`), numbers
 * signed, grouped and padded as Python does.
 */
export function formatWithSpec(value: unknown, spec: string): string {
  const m = SPEC.exec(spec);
  if (!m) throw new Error(`ValueError: Invalid format specifier '${spec}'`);
  const [, fillChar, alignChar, sign, alternate, zero, widthText, grouping, precisionText, type] = m;
  const width = widthText === undefined ? 0 : Number(widthText);
  const precision = precisionText === undefined ? undefined : Number(precisionText);
  const isNumber = typeof value === 'number' || typeof value === 'boolean';
  let body: string;
  let prefix = '';
  if (isNumber && type !== 's') {
    const n = Number(value);
    body = numberText(n, type, precision, alternate !== undefined);
    if (grouping) body = groupThousands(body, grouping);
    prefix = n < 0 || Object.is(n, -0) ? '-' : sign === '+' ? '+' : sign === ' ' ? ' ' : '';
  } else {
    body = pythonStr(value);
    if (precision !== undefined) body = body.slice(0, precision);
  }
  const fill = fillChar ?? (zero && !alignChar ? '0' : ' ');
  const align = alignChar ?? (zero ? '=' : isNumber && type !== 's' ? '>' : '<');
  const pad = Math.max(0, width - prefix.length - body.length);
  switch (align) {
    case '<': return prefix + body + fill.repeat(pad);
    case '^': return fill.repeat(Math.floor(pad / 2)) + prefix + body + fill.repeat(pad - Math.floor(pad / 2));
    case '=': return prefix + fill.repeat(pad) + body;
    default: return fill.repeat(pad) + prefix + body;
  }
}

/** A replacement field's value after `!r` / `!s` / `!a`. */
export function convertField(value: unknown, conversion: string | undefined): unknown {
  if (conversion === 'r' || conversion === 'a') return pythonRepr(value);
  if (conversion === 's') return pythonStr(value);
  return value;
}

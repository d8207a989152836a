import nunjucks from 'nunjucks';

interface Tokenizer {
  str: string;
  index: number;
  isFinished(): boolean;
  current(): string;
  forward(): void;
  _parseString(delimiter: string): string;
}

const lexer = nunjucks as unknown as { lexer: { lex(src: string): Tokenizer } };

const SIMPLE: Readonly<Record<string, string>> = { '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9A-Fa-f]+$/;
const OCTAL = /[0-7]/;

/**
 * The escape starting at `text[i]` (the character after the backslash), as
 * Python's string literals read it (Jinja's lexer decodes a literal with
 * `unicode-escape`): the text it stands for and how many characters it used.
 * An escape Python does not know keeps its backslash: `'\w+'` is the
 * regular expression `\w+`, as dbt projects write patterns for modules.re
 * (nunjucks dropped the backslash, leaving `w+`).
 */
function escapeAt(text: string, i: number): { readonly value: string; readonly used: number } {
  const c = text[i]!;
  if (c in SIMPLE) return { value: SIMPLE[c]!, used: 1 };
  if (c === '\n') return { value: '', used: 1 };
  if (c === '\r') return { value: '', used: text[i + 1] === '\n' ? 2 : 1 };
  if (OCTAL.test(c)) {
    let digits = c;
    while (digits.length < 3 && OCTAL.test(text[i + digits.length] ?? '')) digits += text[i + digits.length];
    return { value: String.fromCodePoint(parseInt(digits, 8)), used: digits.length };
  }
  const width = HEX_DIGITS[c];
  if (width !== undefined) {
    const digits = text.slice(i + 1, i + 1 + width);
    if (digits.length === width && HEX.test(digits)) {
      const code = parseInt(digits, 16);
      if (code <= 0x10ffff) return { value: String.fromCodePoint(code), used: 1 + width };
    }
  }
  return { value: `\\${c}`, used: 1 };
}

let patched = false;

/** Jinja's string literals inside tags read with Python's escapes (see escapeAt), in place of nunjucks' three. */
export function installPythonStringLiterals(): void {
  if (patched) return;
  patched = true;
  const tokenizer = Object.getPrototypeOf(lexer.lexer.lex('')) as Tokenizer;
  tokenizer._parseString = function parsePythonString(this: Tokenizer, delimiter: string): string {
    this.forward();
    let str = '';
    while (!this.isFinished() && this.current() !== delimiter) {
      const cur = this.current();
      if (cur === '\\') {
        this.forward();
        if (this.isFinished()) {
          str += '\\';
          break;
        }
        const { value, used } = escapeAt(this.str, this.index);
        str += value;
        for (let k = 0; k < used; k++) this.forward();
      } else {
        str += cur;
        this.forward();
      }
    }
    this.forward();
    return str;
  };
}

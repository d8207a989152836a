import nunjucks from 'nunjucks';

type Token = { type: string; value: string; lineno: number; colno: number };
interface Tokenizer {
  in_code: boolean;
  lineno: number;
  colno: number;
  str: string;
  index: number;
  nextToken(): Token | null;
  forward(): void;
  miniDbtCurlyDepth?: number;
}

const lib = nunjucks as unknown as { lib: { TemplateError: new (message: string, lineno?: number, colno?: number) => Error } };
const lexer = nunjucks as unknown as { lexer: { lex(src: string, opts?: object): Tokenizer } & Record<string, string> };

let patched = false;

/**
 * `}}` inside an expression closes dict braces first, as Jinja's lexer reads
 * it: `{{ {'a': {'b': 1}} }}` and `{% set d = {'a': {'b': 1}} %}` are a
 * nested dict, where nunjucks' tokenizer ended the tag at the first `}}`.
 * The tokenizer counts open `{` in code and, while one is open, reads `}}`
 * as a single `}`. An invalid regex literal (nunjucks' `r/.../`) fails
 * here, as a syntax error at its place, never as JavaScript's SyntaxError.
 */
export function installNestedBraces(): void {
  if (patched) return;
  patched = true;
  const LEFT = lexer.lexer.TOKEN_LEFT_CURLY!;
  const RIGHT = lexer.lexer.TOKEN_RIGHT_CURLY!;
  const REGEX = lexer.lexer.TOKEN_REGEX!;
  const proto = Object.getPrototypeOf(lexer.lexer.lex('')) as Tokenizer;
  const nextToken = proto.nextToken;
  proto.nextToken = function nextTokenWithNestedBraces(this: Tokenizer): Token | null {
    const depth = this.miniDbtCurlyDepth ?? 0;
    if (this.in_code && depth > 0 && this.str.startsWith('}}', this.index)) {
      const { lineno, colno } = this;
      this.forward();
      this.miniDbtCurlyDepth = depth - 1;
      return { type: RIGHT, value: '}', lineno, colno };
    }
    const { lineno, colno } = this;
    const token = nextToken.call(this);
    // nunjucks' regex literal (`r/^\d+$/`, which this project's macros use): an invalid one is a syntax error here, at its place.
    if (token?.type === REGEX) {
      const { body, flags } = token.value as unknown as { body: string; flags: string };
      try {
        new RegExp(body, flags);
      } catch (err) {
        throw new lib.lib.TemplateError(`invalid regular expression r/${body}/: ${(err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '')}`, lineno + 1, colno + 1);
      }
    }
    if (token?.type === LEFT) this.miniDbtCurlyDepth = depth + 1;
    else if (token?.type === RIGHT) this.miniDbtCurlyDepth = Math.max(0, depth - 1);
    else if (!this.in_code) this.miniDbtCurlyDepth = 0;
    return token;
  };
}

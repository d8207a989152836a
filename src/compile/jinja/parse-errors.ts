import nunjucks from 'nunjucks';
import { internals } from './nunjucks-internals.js';

type Token = { type: string; value: string; lineno: number; colno: number };
interface Tokenizer {
  lineno: number;
  colno: number;
  index: number;
  str: string;
  isFinished(): boolean;
  _parseString(delimiter: string): string;
}
interface Parser {
  tokens: Tokenizer;
  breakOnBlocks: string[] | null;
  peekToken(): Token | null;
  error(message: string, lineno?: number, colno?: number): Error;
  /** The end tags the innermost block that ended last was waiting for (for an error at the end of the template). */
  miniDbtLastBlocks?: string[];
}

const lexer = nunjucks as unknown as { lexer: { lex(src: string): Tokenizer } };
const lib = nunjucks as unknown as { lib: { TemplateError: new (message: string, lineno?: number, colno?: number) => Error } };

/** "'elif' or 'else' or 'endif'" and the block they close ('if'). */
function expectation(blocks: readonly string[]): { tags: string; innermost: string | undefined } {
  const end = blocks.find((b) => b.startsWith('end'));
  // nunjucks' own alias 'elseif' is not Jinja's.
  return { tags: blocks.filter((b) => b !== 'elseif').map((b) => `'${b}'`).join(' or '), innermost: end?.slice(3) };
}

/** Jinja's message for a tag that does not belong where it is. */
function unknownTagMessage(tag: string, blocks: readonly string[] | null): string {
  if (!blocks || blocks.length === 0) return `Encountered unknown tag '${tag}'.`;
  const { tags, innermost } = expectation(blocks);
  const closing = innermost ? ` The innermost block that needs to be closed is '${innermost}'.` : '';
  if (tag.startsWith('end')) return `Encountered unknown tag '${tag}'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for ${tags}.${closing}`;
  return `Encountered unknown tag '${tag}'. Jinja was looking for the following tags: ${tags}.${closing}`;
}

let patched = false;

/**
 * Parse errors as Jinja words them, always with a line and column: an
 * unclosed block (`Unexpected end of template. Jinja was looking for the
 * following tags: 'elif' or 'else' or 'endif'. The innermost block that
 * needs to be closed is 'if'.`), a misplaced end tag, an unterminated
 * string (at its opening quote), and any error at the end of the template
 * (at the template's last position, where nunjucks gave none).
 */
export function installParseErrors(): void {
  if (patched) return;
  patched = true;
  const proto = internals.parser.Parser.prototype as Record<string, unknown>;
  const error = proto.error as (this: Parser, message: string, lineno?: number, colno?: number) => Error;
  proto.error = function jinjaParseError(this: Parser, message: string, lineno?: number, colno?: number): Error {
    let text = message;
    const unknown = /^unknown block tag: (.*)$/.exec(message);
    if (unknown) text = unknownTagMessage(unknown[1]!, this.breakOnBlocks);
    const atEnd = this.peekToken() === null && (lineno === undefined || colno === undefined);
    if (atEnd && (/end of file$/.test(message) || /^expected block end in /.test(message)) && this.miniDbtLastBlocks) {
      const { tags, innermost } = expectation(this.miniDbtLastBlocks);
      text = `Unexpected end of template. Jinja was looking for the following tags: ${tags}.${innermost ? ` The innermost block that needs to be closed is '${innermost}'.` : ''}`;
    }
    // At the end of the template nunjucks has no token to place the error at: the template's end is the place.
    if (atEnd) return error.call(this, text, this.tokens.lineno, this.tokens.colno);
    return error.call(this, text, lineno, colno);
  };
  const parseUntilBlocks = proto.parseUntilBlocks as (this: Parser, ...names: string[]) => unknown;
  proto.parseUntilBlocks = function parseUntilBlocksRemembered(this: Parser, ...names: string[]): unknown {
    const body = parseUntilBlocks.apply(this, names);
    this.miniDbtLastBlocks = names;
    return body;
  };
  const tokenizer = Object.getPrototypeOf(lexer.lexer.lex('')) as Tokenizer;
  const parseString = tokenizer._parseString;
  tokenizer._parseString = function parseStringToItsEnd(this: Tokenizer, delimiter: string): string {
    const { lineno, colno } = this;
    const text = parseString.call(this, delimiter);
    // nunjucks reads an unterminated string to the end of the template: say so, at its opening quote.
    if (this.isFinished() && !this.str.endsWith(delimiter)) throw new lib.lib.TemplateError(`unexpected char "${delimiter}" (a string that is never closed)`, lineno + 1, colno + 1);
    return text;
  };
}

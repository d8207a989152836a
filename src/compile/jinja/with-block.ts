import type nunjucks from 'nunjucks';
import { internals, type CompilerInstance } from './nunjucks-internals.js';

type Token = { type: string; value: string; lineno: number; colno: number };
type AstNode = { lineno: number; colno: number; value?: unknown };
interface Parser {
  nextToken(): Token;
  peekToken(): Token;
  skip(type: string): boolean;
  skipValue(type: string, value: string): boolean;
  fail(message: string, lineno?: number, colno?: number): never;
  parsePrimary(): AstNode;
  parseExpression(): AstNode;
  parseUntilBlocks(...names: string[]): AstNode;
  advanceAfterBlockEnd(name?: string): Token;
}
type WithNode = AstNode & { targets: string[]; values: AstNode[]; body: AstNode };

let WithClass: (new (lineno: number, colno: number, targets: string[], values: AstNode[], body: AstNode) => WithNode) | undefined;

/**
 * Jinja's `{% with a = 1, b = x %}...{% endwith %}`: the names exist inside
 * the block only (its values are read before any is set).
 */
export function installWithBlock(env: nunjucks.Environment): void {
  if (!WithClass) {
    WithClass = internals.nodes.Node.extend('MiniDbtWith', { fields: ['targets', 'values', 'body'] }) as unknown as typeof WithClass;
    const proto = internals.compiler.Compiler.prototype;
    proto.compileMiniDbtWith = function compileWith(this: CompilerInstance & { _tmpid(): string; _compileExpression(n: unknown, f: unknown): void }, node: WithNode, frame: { push(isolate?: boolean): unknown }): void {
      const ids = node.values.map((value) => {
        const id = this._tmpid();
        this._emit(`var ${id} = `);
        this._compileExpression(value, frame);
        this._emitLine(';');
        return id;
      });
      this._emitLine('frame = frame.push(true);');
      node.targets.forEach((name, i) => this._emitLine(`frame.set(${JSON.stringify(name)}, ${ids[i]});`));
      this.compile(node.body, frame.push(true));
      this._emitLine('frame = frame.pop();');
    };
  }
  const extension = {
    tags: ['with'],
    parse(parser: Parser, _nodes: unknown, lexer: Record<string, string>) {
      const tag = parser.nextToken();
      const targets: string[] = [];
      const values: AstNode[] = [];
      while (parser.peekToken().type !== lexer.TOKEN_BLOCK_END) {
        if (targets.length > 0 && !parser.skip(lexer.TOKEN_COMMA!)) parser.fail('expected a comma between with targets', tag.lineno, tag.colno);
        const name = parser.nextToken();
        if (name.type !== lexer.TOKEN_SYMBOL) parser.fail(`expected a name in with, got '${name.value}'`, name.lineno, name.colno);
        if (!parser.skipValue(lexer.TOKEN_OPERATOR!, '=')) parser.fail(`expected '=' after '${name.value}' in with`, name.lineno, name.colno);
        targets.push(name.value);
        values.push(parser.parseExpression());
      }
      parser.advanceAfterBlockEnd(tag.value);
      const body = parser.parseUntilBlocks('endwith');
      parser.advanceAfterBlockEnd();
      return new WithClass!(tag.lineno, tag.colno, targets, values, body);
    },
  };
  env.addExtension('MiniDbtWith', extension as unknown as nunjucks.Extension);
}

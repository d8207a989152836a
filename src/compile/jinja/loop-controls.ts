import type nunjucks from 'nunjucks';
import { internals, type CompilerInstance, type ParserInstance } from './nunjucks-internals.js';

let compilerPatched = false;
let LoopBreak: (new (lineno: number, colno: number) => object) | undefined;
let LoopContinue: (new (lineno: number, colno: number) => object) | undefined;

/**
 * `{% break %}` and `{% continue %}` (Jinja's loopcontrols extension). nunjucks
 * compiles a for loop's body inline in a JavaScript `for`, with no frame pushed
 * per iteration, so the tags compile to plain `break;` / `continue;`. Outside a
 * loop the template fails to compile.
 */
export function installLoopControls(env: nunjucks.Environment): void {
  if (!compilerPatched) {
    compilerPatched = true;
    LoopBreak = internals.nodes.Node.extend('MiniDbtLoopBreak', { fields: [] });
    LoopContinue = internals.nodes.Node.extend('MiniDbtLoopContinue', { fields: [] });
    const proto = internals.compiler.Compiler.prototype;
    proto.compileMiniDbtLoopBreak = function compileBreak(this: CompilerInstance) {
      this._emitLine('break;');
    };
    proto.compileMiniDbtLoopContinue = function compileContinue(this: CompilerInstance) {
      this._emitLine('continue;');
    };
  }
  const extension = {
    tags: ['break', 'continue'],
    parse(parser: ParserInstance) {
      const token = parser.nextToken();
      parser.advanceAfterBlockEnd(token.value);
      return token.value === 'break' ? new LoopBreak!(token.lineno, token.colno) : new LoopContinue!(token.lineno, token.colno);
    },
  };
  env.addExtension('MiniDbtLoopControls', extension as unknown as nunjucks.Extension);
}

import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { refuseEmptyValues } from '../../../src/cli/refuse-empty-values.js';

/** A small program shaped like the CLI's: values collected, errors captured instead of exiting. */
function program(): { cmd: Command; seen: () => Record<string, unknown>; errors: string[] } {
  const errors: string[] = [];
  let seen: Record<string, unknown> = {};
  const cmd = new Command('t').exitOverride().configureOutput({ writeErr: (s) => errors.push(s.trim()), writeOut: () => undefined });
  const sub = cmd.command('history').argument('<model>')
    .option('--partition <value>')
    .option('-s, --select <selector...>')
    .option('--vars <yaml>')
    .option('--json')
    .addOption(new Option('--output <format>').choices(['name', 'json']))
    .action((model: string, flags: Record<string, unknown>) => {
      seen = { model, ...flags };
    });
  sub.exitOverride().configureOutput({ writeErr: (s) => errors.push(s.trim()), writeOut: () => undefined });
  refuseEmptyValues(cmd);
  return { cmd, seen: () => seen, errors };
}

const parse = (args: string[]) => {
  const p = program();
  let code: string | undefined;
  try {
    p.cmd.parse(['node', 't', 'history', ...args]);
  } catch (err) {
    code = (err as { code?: string }).code;
  }
  return { code, errors: p.errors, seen: p.seen() };
};

describe('refuseEmptyValues: one rule for every option value and argument', () => {
  it.each([
    [['m', '--partition', ''], "error: option '--partition <value>' argument '' is invalid. It cannot be empty."],
    [['m', '--partition', '  '], "error: option '--partition <value>' argument '  ' is invalid. It cannot be empty."],
    [['m', '--select', 'a', ''], "error: option '-s, --select <selector...>' argument '' is invalid. It cannot be empty."],
    [['m', '--output', ''], "error: option '--output <format>' argument '' is invalid. It cannot be empty."],
    [[''], "error: command-argument value '' is invalid for argument 'model'. It cannot be empty."],
  ])('%j is refused', (args, message) => {
    const { code, errors } = parse(args);
    expect(code).toBe('commander.invalidArgument');
    expect(errors).toEqual([message]);
  });

  it('keeps what the options did before: variadic values collected, choices checked, flags and --vars untouched', () => {
    expect(parse(['m', '-s', 'a', 'b', '--select', 'c', '--output', 'json', '--json', '--vars', '']).seen).toEqual({ model: 'm', select: ['a', 'b', 'c'], output: 'json', json: true, vars: '' });
    expect(parse(['m', '--output', 'xml']).errors[0]).toMatch(/Allowed choices are name, json/);
  });
});

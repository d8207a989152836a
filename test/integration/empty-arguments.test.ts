import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

/** Every command the CLI lists, with a placeholder for its required argument (a test below checks the list against --help). */
const COMMANDS: readonly (readonly string[])[] = [
  ['run'], ['seed'], ['build'], ['snapshot'], ['compile'], ['ls'], ['lateness', 'raw_orders'], ['parse'], ['stale', 'm'], ['backfill', 'm'],
  ['history', 'm'], ['replay', 'm'], ['retry'], ['test'], ['show'], ['run-operation', 'm'], ['docs', 'generate'], ['docs', 'serve'],
  ['source', 'freshness'], ['debug'], ['init', 'p'], ['lesson'], ['explain-order', '1'], ['deps'], ['clean'], ['clone'],
];

/** The options of a command that take a value, read from its --help (so a new option is covered without touching this test); each help read once. */
const helps = new Map<string, string>();
function valueOptions(command: readonly string[]): string[] {
  const key = command.join(' ');
  if (!helps.has(key)) helps.set(key, runCli([...command, '--help']).stdout);
  return [...helps.get(key)!.matchAll(/^\s+(?:-\w, )?(--[\w-]+) [<[]/gm)].map((m) => m[1]!);
}

describe('an empty argument is a usage error: one line, exit 2, nothing loaded', () => {
  it('the help lists the options this test walks (it would pass vacuously otherwise)', () => {
    // the command's own, then dbt's global flags (listed in every command's help: they work after it too)
    expect(valueOptions(['history', 'm'])).toEqual(['--project-dir', '--database', '--vars', '--profiles-dir', '--profile', '--target', '--busy-timeout', '--target-path', '--partition', '--limit', '--log-level', '--log-format', '--printer-width', '--warn-error-options']);
  });

  it('the commands walked are the ones --help lists', () => {
    const listed = [...runCli(['--help']).stdout.matchAll(/^ {2}([a-z][\w-]*)(?:\|\w+)? /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect([...new Set(COMMANDS.map((c) => c[0]!))].sort()).toEqual([...listed].sort());
  });

  // Each command with its own options; an option many commands share (--project-dir, the profile flags, the
  // global flags) is walked on the first command that has it, plus one per command to show each is wired.
  const walked = new Set<string>();
  it.each(COMMANDS)('%s: every option with a value', (...command) => {
    const options = valueOptions(command).filter((o) => o !== '--vars');
    expect(options.length).toBeGreaterThanOrEqual(3);
    const fresh = options.filter((o) => !walked.has(o));
    for (const option of fresh.length > 0 ? fresh : [options[0]!]) {
      walked.add(option);
      const result = runCli([...command, option, '', '--project-dir', '/nonexistent']);
      expect(result.code, `${command.join(' ')} ${option} ''`).toBe(2);
      expect(result.stderr.trim(), `${command.join(' ')} ${option} ''`).toMatch(new RegExp(`^error: option '(-\\w, )?${option} [<[][^']*' argument '' is invalid\\. It cannot be empty\\.$`));
    }
  });

  it('an empty model name, and --select with one empty selector among others', () => {
    const history = runCli(['history', '']);
    expect(history.code).toBe(2);
    expect(history.stderr.trim()).toBe("error: command-argument value '' is invalid for argument 'model'. It cannot be empty.");
    const select = runCli(['run', '--select', 'daily_revenue', ' ']);
    expect(select.code).toBe(2);
    expect(select.stderr.trim()).toBe("error: option '-s, --select <selector...>' argument ' ' is invalid. It cannot be empty.");
  });

  it("--vars '' still means no vars (a script's empty $VARS)", () => {
    const result = runCli(['ls', '--vars', '', '--project-dir', '/nonexistent']);
    expect(result.stderr).toContain('no project.yml');
  });
});

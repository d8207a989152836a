import { InvalidArgumentError, type Argument, type Command, type Option } from 'commander';

/** Options where an empty value means something: `--vars ''` is no vars (a script's empty $VARS). */
const EMPTY_ALLOWED = new Set(['--vars']);

type Parse = (value: string, previous: unknown) => unknown;

function refuseEmpty(value: string): void {
  if (value.trim() === '') throw new InvalidArgumentError('It cannot be empty.');
}

/** Check each value before the option's (or argument's) own parser, collecting variadic values as commander does. */
function guarded(target: Option | Argument, defaultValue: unknown): Parse {
  const own = target.parseArg as Parse | undefined;
  return (value, previous) => {
    refuseEmpty(value);
    if (own) return own(value, previous);
    if (!target.variadic) return value;
    return previous === defaultValue || !Array.isArray(previous) ? [value] : [...(previous as unknown[]), value];
  };
}

/**
 * Every option value and command argument of the program, in every command,
 * must not be empty (`history --partition ''`, `--select ''`, `--project-dir ''`):
 * commander reports it as one line and the CLI exits 2. One rule for all
 * options, so a new option cannot forget it.
 */
export function refuseEmptyValues(command: Command): void {
  for (const option of command.options) {
    if ((option.required || option.optional) && !EMPTY_ALLOWED.has(option.long ?? '')) option.argParser(guarded(option, option.defaultValue));
  }
  for (const argument of command.registeredArguments) argument.argParser(guarded(argument, argument.defaultValue));
  for (const sub of command.commands) refuseEmptyValues(sub);
}

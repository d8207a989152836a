/**
 * An expected error caused by the project, the command line or the data:
 * printed as one message (with file:line when known), never with a stack.
 * Exit code 2 for project and usage errors.
 */
export interface ErrorLocation {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

export class ProjectError extends Error {
  readonly location: ErrorLocation;
  readonly hint?: string;
  readonly exitCode: number;

  constructor(message: string, options: { location?: ErrorLocation; hint?: string; exitCode?: number } = {}) {
    super(message);
    this.name = 'ProjectError';
    this.location = options.location ?? {};
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 2;
  }

  /** `file:line:col message` followed by the hint, as the CLI prints it. */
  format(): string {
    const { file, line, column } = this.location;
    let where = '';
    if (file) {
      where = file;
      if (line !== undefined) where += `:${line}`;
      if (line !== undefined && column !== undefined) where += `:${column}`;
      where += ': ';
    }
    return `${where}${this.message}${this.hint ? `\n  hint: ${this.hint}` : ''}`;
  }
}

/** Several problems found while loading or compiling, reported together. */
export class ProjectErrors extends ProjectError {
  readonly errors: readonly ProjectError[];
  constructor(errors: readonly ProjectError[]) {
    super(errors.map((e) => e.format()).join('\n'));
    this.errors = errors;
  }
  override format(): string {
    return this.errors.map((e) => e.format()).join('\n');
  }
}

export function isProjectError(err: unknown): err is ProjectError {
  return err instanceof ProjectError;
}

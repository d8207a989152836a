import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { warnUser } from '../errors/user-warning.js';
import { readYamlFile } from './read-yaml-file.js';
import { PROJECT_FILE_KEYS, projectFileSchema, type ProjectFile } from './project-file-schema.js';

export interface LoadedProjectFile {
  readonly file: string;
  readonly config: ProjectFile;
  /** The line of a value in the file. */
  readonly lineOf: (path: readonly (string | number)[]) => number | undefined;
}

/** Read project.yml (or dbt_project.yml when there is none) and validate it. */
export function loadProjectFile(root: string): LoadedProjectFile {
  const candidates = ['project.yml', 'dbt_project.yml'];
  const file = candidates.find((f) => existsSync(join(root, f)));
  if (!file) {
    throw new ProjectError(`no project.yml (or dbt_project.yml) found in ${root}`, {
      hint: 'run mini-dbt from the project folder, or pass --project-dir DIR',
    });
  }
  const yaml = readYamlFile(join(root, file), file);
  if (yaml.value === null || typeof yaml.value !== 'object' || Array.isArray(yaml.value)) {
    throw new ProjectError(`${file} must be a mapping with at least a 'name'`, { location: { file, line: 1 } });
  }
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(yaml.value)) {
    if (PROJECT_FILE_KEYS.includes(key)) known[key] = value;
    // dbt warns about a top-level key it does not know and goes on (dbt-core 1.10+: "Unexpected top-level key",
    // dbt Fusion: "Ignored unexpected key"); so does mini-dbt, naming the closest key it knows.
    else warnUser(`${file}:${yaml.lineOf([key]) ?? 1}: ignored unexpected key '${key}' in ${file}.${didYouMeanSuffix(key, PROJECT_FILE_KEYS)}`);
  }
  for (const [old, current] of [['source-paths', 'model-paths'], ['data-paths', 'seed-paths']] as const) {
    if (known[old] === undefined) continue;
    if (known[current] !== undefined) {
      throw new ProjectError(`${old} and ${current} cannot both be defined: '${old}' is the deprecated name of '${current}'`, {
        location: { file, line: yaml.lineOf([old]) },
        hint: `keep only '${current}'`,
      });
    }
    warnUser(`${file}:${yaml.lineOf([old]) ?? 1}: '${old}' is deprecated, read as '${current}' (as dbt does); rename it to '${current}'`);
  }
  if (isSet(known.tests) && isSet(known.data_tests)) {
    throw new ProjectError("Invalid project config: cannot have both 'tests' and 'data_tests' defined", {
      location: { file, line: yaml.lineOf(['tests']) },
      hint: "'tests' is the deprecated name of 'data_tests': keep only 'data_tests'",
    });
  }
  const parsed = projectFileSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const where = path.length > 0 ? `'${path.join('.')}'` : 'the file';
    throw new ProjectError(`invalid value for ${where} in ${file}: ${issue.message}`, {
      location: { file, line: yaml.lineOf(path) ?? 1 },
    });
  }
  return { file, config: parsed.data, lineOf: (path) => yaml.lineOf(path) };
}

/** Set as Python's truth sees it (dbt checks `data.get('tests') and data.get('data_tests')`): an empty mapping is not. */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return false;
  return typeof value !== 'object' || Object.keys(value).length > 0;
}

import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { readYamlFile, type YamlFile } from './read-yaml-file.js';
import { FILE_TARGET, type Target } from './target.js';
import { postgresTarget } from './postgres-target.js';

/** Renders the Jinja in a profile's values (env_var(), var()); injected by the parse layer. */
export type ProfileRenderer = (value: unknown, file: string, lineOf: (path: readonly (string | number)[]) => number | undefined, path: readonly (string | number)[]) => unknown;

export interface TargetOptions {
  /** --profiles-dir (else DBT_PROFILES_DIR, the current directory, the project's, ~/.dbt). */
  readonly profilesDir?: string;
  /** --profile (else the project file's `profile:`). */
  readonly profile?: string;
  /** --target (else the profile's `target:`, else 'default'). */
  readonly target?: string;
  readonly render?: ProfileRenderer;
}

export interface ResolvedTarget {
  readonly target: Target;
  /** The main schema's file from the profile (`schemas_and_paths.main`), when it names one. */
  readonly mainPath?: string;
}

const PROFILES = 'profiles.yml';
const SUPPORTED_TYPES = ['sqlite', 'postgres'];

/** Where dbt Core looks for profiles.yml, in order: the flag, DBT_PROFILES_DIR, the current directory, ~/.dbt. */
function candidateDirs(root: string, options: TargetOptions): { dirs: string[]; explicit?: string } {
  if (options.profilesDir !== undefined) return { dirs: [resolve(options.profilesDir)], explicit: '--profiles-dir' };
  const env = process.env.DBT_PROFILES_DIR;
  if (env !== undefined && env !== '') return { dirs: [resolve(env)], explicit: 'DBT_PROFILES_DIR' };
  const dirs = [process.cwd(), root, join(homedir(), '.dbt')].map((d) => resolve(d));
  return { dirs: [...new Set(dirs)] };
}

function findProfilesFile(root: string, options: TargetOptions): string | undefined {
  const { dirs, explicit } = candidateDirs(root, options);
  for (const dir of dirs) {
    const file = join(dir, PROFILES);
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  if (explicit) throw new ProjectError(`no ${PROFILES} in ${dirs[0]} (given by ${explicit})`, { hint: `create ${join(dirs[0]!, PROFILES)}, or point ${explicit} at the folder that holds it` });
  return undefined;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The target a command runs against, dbt's way: the profile named by
 * --profile or the project's `profile:`, read from the first profiles.yml
 * found, and its output named by --target or the profile's `target:`.
 * Without a profiles.yml (and no flag asking for one) the project's own
 * database file is the target, as it always was.
 */
export function loadTarget(root: string, projectProfile: string | undefined, options: TargetOptions): ResolvedTarget {
  const profileName = options.profile ?? projectProfile;
  const asked = options.profile !== undefined || options.target !== undefined;
  const file = findProfilesFile(root, options);
  if (file === undefined) {
    if (asked) {
      const what = options.profile !== undefined ? `--profile ${options.profile}` : `--target ${options.target}`;
      throw new ProjectError(`${what} needs a ${PROFILES}, and none was found (looked in the current directory, the project folder and ~/.dbt)`, {
        hint: `create one, or name its folder with --profiles-dir or DBT_PROFILES_DIR`,
      });
    }
    return { target: FILE_TARGET };
  }
  if (profileName === undefined) {
    if (asked) throw new ProjectError('--target needs a profile: set `profile:` in the project file or pass --profile');
    return { target: FILE_TARGET };
  }
  // Kept out of the parse cache: target/partial_parse.json must never hold a password.
  const yaml = readYamlFile(file, file, { secret: true });
  const profiles = isMap(yaml.value) ? yaml.value : {};
  const names = Object.keys(profiles).filter((k) => k !== 'config');
  const profile = profiles[profileName];
  if (!isMap(profile)) {
    throw new ProjectError(`profile '${profileName}' not found; profiles there: ${names.length > 0 ? names.join(', ') : '(none)'}.${didYouMeanSuffix(profileName, names)}`, {
      location: { file },
      hint: options.profile !== undefined ? 'pass --profile with one of them' : "set `profile:` in the project file to one of them, or add the profile",
    });
  }
  const outputs = isMap(profile.outputs) ? profile.outputs : {};
  const targetNames = Object.keys(outputs);
  const render = (value: unknown, path: (string | number)[]) => (options.render ? options.render(value, file, yaml.lineOf, path) : value);
  const targetName = options.target ?? (profile.target === undefined ? 'default' : String(render(profile.target, [profileName, 'target'])));
  const output = outputs[targetName];
  if (!isMap(output)) {
    throw new ProjectError(`target '${targetName}' not found in profile '${profileName}'; its targets: ${targetNames.length > 0 ? targetNames.join(', ') : '(none)'}.${didYouMeanSuffix(targetName, targetNames)}`, {
      location: { file, line: yaml.lineOf([profileName, 'outputs']) },
      hint: options.target !== undefined ? 'pass --target with one of them' : `set the profile's target: to one of them, or pass --target`,
    });
  }
  const rendered = render(output, [profileName, 'outputs', targetName]) as Record<string, unknown>;
  const where = { file, yaml, root, profileName, targetName };
  return rendered.type === 'postgres' ? postgresTarget(rendered, where) : sqliteTarget(rendered, where);
}

export interface Where {
  readonly file: string;
  readonly yaml: YamlFile;
  readonly root: string;
  readonly profileName: string;
  readonly targetName: string;
}

/** A dbt-sqlite output (`type: sqlite`): threads, schema, schemas_and_paths, schema_directory. */
function sqliteTarget(output: Record<string, unknown>, where: Where): ResolvedTarget {
  const at = (key: string) => ({ file: where.file, line: where.yaml.lineOf([where.profileName, 'outputs', where.targetName, key]) ?? where.yaml.lineOf([where.profileName, 'outputs', where.targetName]) });
  const label = `target '${where.targetName}' of profile '${where.profileName}'`;
  const type = String(output.type ?? '');
  if (!SUPPORTED_TYPES.includes(type)) {
    throw new ProjectError(`${label} has type '${type || '(none)'}'; mini-dbt runs on: ${SUPPORTED_TYPES.join(', ')}`, {
      location: at('type'),
      hint: 'set `type: sqlite` (dbt-sqlite\'s keys: schema, schemas_and_paths, schema_directory, threads) or `type: postgres` (dbt-postgres\'s keys: host, port, user, password, dbname, schema, threads)',
    });
  }
  const threads = output.threads === undefined ? 1 : Number(output.threads);
  if (!Number.isInteger(threads) || threads < 1) throw new ProjectError(`${label}: threads must be a whole number of at least 1, not ${JSON.stringify(output.threads)}`, { location: at('threads') });
  const schema = output.schema === undefined ? 'main' : String(output.schema);
  if (schema === '' || schema.toLowerCase() === 'temp') throw new ProjectError(`${label}: schema ${JSON.stringify(schema)} cannot hold relations`, { location: at('schema') });
  const path = (value: unknown, key: string): string => {
    if (typeof value !== 'string' || value === '') throw new ProjectError(`${label}: ${key} must be a file path, not ${JSON.stringify(value)}`, { location: at(key.split('.')[0]!) });
    return isAbsolute(value) ? value : resolve(where.root, value);
  };
  const schemaPaths: Record<string, string> = {};
  let mainPath: string | undefined;
  if (output.schemas_and_paths !== undefined) {
    if (!isMap(output.schemas_and_paths)) throw new ProjectError(`${label}: schemas_and_paths must map schema names to database files`, { location: at('schemas_and_paths') });
    for (const [name, file] of Object.entries(output.schemas_and_paths)) {
      if (name.toLowerCase() === 'temp') throw new ProjectError(`${label}: schemas_and_paths cannot name the schema 'temp' (SQLite's own)`, { location: at('schemas_and_paths') });
      if (name === 'main') mainPath = path(file, `schemas_and_paths.${name}`);
      else schemaPaths[name] = path(file, `schemas_and_paths.${name}`);
    }
  }
  const schemaDirectory = output.schema_directory === undefined ? undefined : path(output.schema_directory, 'schema_directory');
  return {
    mainPath,
    target: { name: where.targetName, profileName: where.profileName, profilesFile: where.file, type, schema, threads, schemaPaths, schemaDirectory, customSchemas: true },
  };
}

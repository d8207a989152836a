import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { readYamlFile } from './read-yaml-file.js';
import { PROJECT_FILE_KEYS, projectFileSchema, type ProjectFile } from './project-file-schema.js';

export interface LoadedProjectFile {
  readonly file: string;
  readonly config: ProjectFile;
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
  const parsed = projectFileSchema.safeParse(yaml.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const key = issue.keys[0]!;
      const path = [...issue.path.map(String), key];
      throw new ProjectError(`unknown key '${key}' in ${file}.${didYouMeanSuffix(key, PROJECT_FILE_KEYS)}`, {
        location: { file, line: yaml.lineOf(path) },
      });
    }
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const where = path.length > 0 ? `'${path.join('.')}'` : 'the file';
    throw new ProjectError(`invalid value for ${where} in ${file}: ${issue.message}`, {
      location: { file, line: yaml.lineOf(path) ?? 1 },
    });
  }
  return { file, config: parsed.data };
}

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isNode, isSeq, parseDocument, YAMLSeq } from 'yaml';
import { ProjectError } from '../errors/project-error.js';
import { PACKAGES_FILES } from './packages-file.js';

export type PackageSource = 'hub' | 'git' | 'local';

/** Whether an entry names the package being added (dbt's check: the name, with - or _, bounded by / or .). */
function namesSame(identifier: string, name: string): boolean {
  const variants = new Set([name, name.replaceAll('_', '-'), name.replaceAll('-', '_')]);
  const short = name.split('/').at(-1)!;
  for (const v of [short, short.replaceAll('_', '-'), short.replaceAll('-', '_')]) variants.add(v);
  for (const v of variants) {
    const at = identifier.indexOf(v);
    if (at < 0) continue;
    const end = at + v.length;
    if ((at === 0 || '/.'.includes(identifier[at - 1]!)) && (end === identifier.length || '/.'.includes(identifier[end]!))) return true;
  }
  return false;
}

/**
 * dbt 1.8's `deps --add-package NAME@VERSION`: add the entry to the packages file (creating
 * packages.yml when there is none), replacing an entry for the same package.
 */
export function addPackage(projectRoot: string, given: string, source: PackageSource, log: (text: string, event?: string) => void): void {
  const at = given.lastIndexOf('@');
  const name = at > 0 ? given.slice(0, at) : given;
  const version = at > 0 ? given.slice(at + 1) : undefined;
  if (name === '' || (source === 'hub' && !version)) {
    throw new ProjectError(`--add-package needs NAME@VERSION for a hub package (e.g. dbt-labs/dbt_utils@1.3.0), got '${given}'`);
  }
  const file = PACKAGES_FILES.find((f) => existsSync(join(projectRoot, f)) && /^packages\s*:/m.test(readFileSync(join(projectRoot, f), 'utf8'))) ?? 'packages.yml';
  const path = join(projectRoot, file);
  const doc = parseDocument(existsSync(path) ? readFileSync(path, 'utf8') : 'packages: []\n');
  if (doc.errors.length > 0) throw new ProjectError(`YAML syntax error: ${doc.errors[0]!.message.split('\n')[0]}`, { location: { file } });
  let list = doc.get('packages');
  if (!isSeq(list)) {
    list = new YAMLSeq();
    doc.set('packages', list);
  }
  const seq = list as YAMLSeq;
  seq.items = seq.items.filter((item) => {
    const entry = (isNode(item) ? item.toJSON() : item) as Record<string, unknown> | null;
    const id = entry?.package ?? entry?.git ?? entry?.local;
    const same = typeof id === 'string' && namesSame(id, name);
    if (same) log(`Found duplicate package in ${file}, removing: ${JSON.stringify(entry)}`, 'DepsFoundDuplicatePackage');
    return !same;
  });
  const versionValue = version?.includes(',') ? version.split(',') : version;
  const entry = source === 'hub' ? { package: name, version: versionValue } : source === 'git' ? { git: name, ...(version ? { revision: version } : {}) } : { local: name };
  seq.items.push(doc.createNode(entry));
  if (seq.flow) seq.flow = false;
  writeFileSync(path, doc.toString());
  log(`Added new package ${version ? `${name}@${version}` : name} to ${path}`, 'DepsAddPackage');
}

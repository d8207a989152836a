// One-shot hashing (Node 20.12+): no Hash object per call, which counts at 10,000 models.
import { hash as oneShotHash } from 'node:crypto';
import { pythonStr } from '../compile/jinja/percent-format.js';

const md5 = (text: string) => oneShotHash('md5', text, 'hex');

/**
 * dbt's synthesize_generic_test_names: `<test>_<target>_<args>` where the
 * arguments (column_name included) are taken in name order, flattened, and
 * every run of characters other than letters, digits and `_` becomes `_`,
 * joined by `__`. Names of 64 characters or more become the first 30
 * characters of `<test>_<target>` + `_` + the md5 of the full name.
 */
export function synthesizeTestName(testType: string, targetName: string, args: Readonly<Record<string, unknown>>): { name: string; fullName: string } {
  const flat: string[] = [];
  for (const key of Object.keys(args).sort()) {
    if (key === 'model') continue;
    const value = args[key];
    const parts = Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.values(value) : [value];
    flat.push(...parts.map((p) => pythonStr(p)));
  }
  const unique = flat.map((a) => a.replace(/[^0-9a-zA-Z_]+/g, '_')).join('__');
  const identifier = `${testType}_${targetName}`;
  const fullName = `${identifier}_${unique}`;
  return { name: fullName.length >= 64 ? `${identifier.slice(0, 30)}_${md5(fullName)}` : fullName, fullName };
}

/** test.<project>.<name>.<10 hex chars>, stable for the same test in the same file. */
export function genericTestUniqueId(project: string, name: string, fullName: string, path: string): string {
  return `test.${project}.${name}.${md5(`${fullName}\0${path}`).slice(0, 10)}`;
}

/**
 * PostgreSQL's `regexp_replace(source, pattern, replacement [, flags])` as an
 * SQL function on SQLite connections (dbt_project_evaluator's
 * int_all_graph_resources calls it; DuckDB, Snowflake and Redshift have it
 * too). As PostgreSQL: the first match is replaced unless the flags hold `g`;
 * `i` ignores case (`c` takes it back); `.` matches a newline unless `n`
 * (or `m`) makes the match newline-sensitive, which also lets ^ and $ match
 * at line breaks; `\1`..`\9` and `\&` in the replacement are the groups and
 * the whole match. The pattern is read as JavaScript's regular expressions
 * read it, PostgreSQL's bracket classes (`[[:digit:]]`) and word boundaries
 * (`\y`, `\m`, `\M`) translated. NULL in, NULL out; a pattern or flag it
 * cannot read is an SQL error.
 */

const compiled = new Map<string, RegExp>();

/** POSIX bracket classes, inside a bracket expression, as JavaScript's. */
const CLASSES: Readonly<Record<string, string>> = {
  alpha: 'a-zA-Z', digit: '0-9', alnum: 'a-zA-Z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f', word: '\\w', cntrl: '\\x00-\\x1f\\x7f', print: '\\x20-\\x7e', graph: '\\x21-\\x7e',
};

function jsPattern(pattern: string): string {
  return pattern
    .replace(/\[:([a-z]+):\]/g, (whole, name: string) => CLASSES[name] ?? whole)
    .replace(/\\y/g, '\\b')
    .replace(/\\m/g, '\\b(?=\\w)')
    .replace(/\\M/g, '\\b(?<=\\w)');
}

function jsFlags(flags: string): string {
  let global = false;
  let ignoreCase = false;
  let newlineSensitive = false;
  for (const f of flags) {
    if (f === 'g') global = true;
    else if (f === 'i') ignoreCase = true;
    else if (f === 'c') ignoreCase = false;
    else if (f === 'n' || f === 'm') newlineSensitive = true;
    else if (f === 's') newlineSensitive = false;
    else throw new Error(`regexp_replace: invalid regular expression option: "${f}"`);
  }
  return `${global ? 'g' : ''}${ignoreCase ? 'i' : ''}${newlineSensitive ? 'm' : 's'}`;
}

function regexpOf(pattern: string, flags: string): RegExp {
  const key = `${flags}\u0000${pattern}`;
  let re = compiled.get(key);
  if (!re) {
    try {
      re = new RegExp(jsPattern(pattern), jsFlags(flags));
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('regexp_replace:')) throw err;
      throw new Error(`regexp_replace: invalid regular expression ${JSON.stringify(pattern)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (compiled.size > 256) compiled.clear();
    compiled.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/** PostgreSQL's replacement text (`\1`, `\&`, `\\`) as JavaScript's (`$1`, `$&`, `\`, a `$` kept as it is). */
function jsReplacement(replacement: string): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    const next = replacement[i + 1];
    if (c === '$') out += '$$';
    else if (c === '\\' && next !== undefined && /[1-9&]/.test(next)) {
      out += `$${next}`;
      i++;
    } else if (c === '\\' && next === '\\') {
      out += '\\';
      i++;
    } else out += c;
  }
  return out;
}

/** The SQL function: (source, pattern, replacement [, flags]). */
export function regexpReplaceSql(...args: unknown[]): string | null {
  if (args.length < 3 || args.length > 4) throw new Error(`regexp_replace takes 3 or 4 arguments (${args.length} given)`);
  const [source, pattern, replacement, flags] = args;
  if (source === null || source === undefined || pattern === null || pattern === undefined || replacement === null || replacement === undefined) return null;
  if (args.length === 4 && typeof flags !== 'string') {
    if (flags === null) return null;
    throw new Error("regexp_replace: only the (source, pattern, replacement [, flags]) form is supported on SQLite (no start position)");
  }
  return String(source).replace(regexpOf(String(pattern), (flags as string | undefined) ?? ''), jsReplacement(String(replacement)));
}

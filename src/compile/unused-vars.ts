import { didYouMean } from '../errors/did-you-mean.js';

/** Vars mini-dbt itself reads: the as-of of a run, a backfill's range, the lookback of lateness and replay. */
export const TOOL_VARS: readonly string[] = ['as_of', 'start', 'end', 'lookback_days'];

const VAR_CALL = /\bvar\s*\(/g;
const LITERAL_VAR_CALL = /\bvar\s*\(\s*(['"])([^'"\\]*)\1/g;

/**
 * The var names some template text reads with a literal `var('name')`, or
 * null when a call computes its name (`var(name)`): then which vars are read
 * cannot be known and nothing should be reported unused. Read from the text,
 * not from a render, so a var read only in one branch (inside
 * `is_incremental()`, or a macro only some runs call) counts too, and a
 * load served by the parse cache gives the same answer.
 */
export function varsReadIn(texts: Iterable<string>): Set<string> | null {
  const names = new Set<string>();
  for (const text of texts) {
    if (!text.includes('var')) continue;
    const calls = text.match(VAR_CALL)?.length ?? 0;
    const literal = [...text.matchAll(LITERAL_VAR_CALL)];
    if (literal.length !== calls) return null;
    for (const m of literal) names.add(m[2]!);
  }
  return names;
}

/**
 * dbt ignores --vars that nothing reads, so a misspelled one (`asof`)
 * silently does nothing: one warning per such var, naming the closest var the
 * project does read. `used`: what the selected nodes (and every macro) read;
 * `known`: what the whole project reads.
 */
export function unusedVarWarnings(cliVars: Readonly<Record<string, unknown>>, used: ReadonlySet<string> | null, known: ReadonlySet<string> | null): string[] {
  if (used === null) return [];
  const candidates = [...new Set([...TOOL_VARS, ...(known ?? used)])];
  return Object.keys(cliVars)
    .filter((name) => !used.has(name) && !TOOL_VARS.includes(name))
    .map((name) => {
      const best = didYouMean(name, candidates.filter((c) => c !== name));
      return `var '${name}' is not used by any selected model${best ? `; did you mean '${best}'?` : ''}`;
    });
}

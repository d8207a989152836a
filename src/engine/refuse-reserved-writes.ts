import { ProjectError, type ErrorLocation } from '../errors/project-error.js';
import { foldAsciiCase, isReservedName, RESERVED_INFIX, RESERVED_PREFIX } from '../project/reserved-names.js';
import { engine } from './current-engine.js';
import { reservedWrites } from './reserved-write-scan.js';

/**
 * Refuse SQL that comes from the project (a hook, run_query / statement in any template, a
 * run-operation macro, an adapter method a template calls) when it would create, change or drop
 * one of mini-dbt's own relations (reserved-write-scan.ts says which statements count), before
 * any of it runs (E230). `origin` names where the SQL comes from (`post_hook of model 'orders'`),
 * `location` its file and line; the line is moved to the statement's own line within a hook text
 * when the text's first line is known. Reading the ledger stays allowed. mini-dbt's own statements
 * (its ledger, its scratch tables) never come through here.
 */
export function refuseReservedWrites(sql: string, origin: string, location: ErrorLocation = {}, options: { readonly scratch?: boolean } = {}): void {
  const writes = reservedWrites(sql, { postgres: engine.name === 'postgres' });
  // `scratch`: the scratch tables (`__mini_dbt_`) may be written, the ledger (`_mini_dbt_...`) not.
  const first = options.scratch ? writes.find((w) => foldAsciiCase(w.name).startsWith(RESERVED_PREFIX)) : writes[0];
  if (first === undefined) return;
  const line = location.line === undefined ? undefined : location.line + lineOf(sql, first.offset) - 1;
  throw new ProjectError(
    `${origin} would ${first.action} '${first.name}', which is in mini-dbt's reserved namespace (the run ledger and the staging tables), so none of it was run`,
    {
      location: { ...location, ...(line === undefined ? {} : { line }) },
      hint: `project SQL may read mini-dbt's own tables but never create, change or drop them (names starting with '${RESERVED_PREFIX}' or containing '${RESERVED_INFIX}', in any letter case or schema)`,
    },
  );
}

/** The 1-based line of `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** Refuse a write a template asks of the adapter (drop_relation, rename_relation...) to one of mini-dbt's own relations (E230). */
export function refuseReservedRelation(name: string, action: string, origin: string): void {
  if (!isReservedName(name)) return;
  throw new ProjectError(`${origin} would ${action} '${name}', which is in mini-dbt's reserved namespace (the run ledger and the staging tables), so nothing was done`, {
    hint: `project SQL may read mini-dbt's own tables but never create, change or drop them (names starting with '${RESERVED_PREFIX}' or containing '${RESERVED_INFIX}', in any letter case or schema)`,
  });
}

/** A rendering's name as a refusal says it: a bare node name quoted (`'orders'`), a described one (`macro 'wipe'`) as it is. */
export function renderedName(name: string): string {
  return name.includes("'") ? name : `'${name}'`;
}

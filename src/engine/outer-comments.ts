/**
 * A statement's text split into the comments (blanks, a final `;`) around it and the statement itself:
 * code that reads a statement's text (is it a DROP? does it end in CASCADE?) reads `core`, so a
 * query comment before or after it (query-comment-connection.ts) changes nothing it decides.
 */
export function outerComments(sql: string): { readonly lead: string; readonly core: string; readonly trail: string } {
  const lead = /^(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/.exec(sql)![0];
  let end = sql.length;
  for (;;) {
    const before = end;
    while (end > lead.length && /[\s;]/.test(sql[end - 1]!)) end--;
    // One block comment at the end (the query comment appended): the last `/*` before its `*/`.
    if (end - 2 >= lead.length && sql.slice(end - 2, end) === '*/') {
      const open = sql.lastIndexOf('/*', end - 3);
      if (open >= lead.length) end = open;
    }
    if (end === before) break;
  }
  return { lead, core: sql.slice(lead.length, end), trail: sql.slice(end) };
}

import { foldAsciiCase, isReservedName } from '../project/reserved-names.js';
import { skipQuoted } from './sql-quoted-text.js';

/**
 * Which of mini-dbt's own relations (reserved-names.ts: the ledger, the scratch tables) a SQL
 * text would create, change or drop. The text is read as tokens (sqlite-sql-scan's quoting:
 * comments skipped; "x", [x], `x` and 'x' all able to name a relation, as SQLite lets them) and
 * every place a statement names the relation it writes is checked, wherever it stands in the text
 * (a trigger's body, a WITH before the DML, several statements of a script):
 *
 * - `INSERT [OR ...] INTO`, `REPLACE INTO`, `UPDATE [OR ...] [ONLY]`, `DELETE FROM [ONLY]`,
 *   `TRUNCATE [TABLE] [ONLY] a, b`, `COPY x FROM` (PostgreSQL);
 * - `CREATE [OR REPLACE] [TEMP|UNIQUE|...] TABLE|VIEW|INDEX|TRIGGER|SEQUENCE|RULE|POLICY name`,
 *   and the table an index, trigger, rule or policy is made `ON` (`TO` for a rule): a trigger or
 *   an index on the ledger changes what the tool's own writes do;
 * - `DROP TABLE|VIEW|INDEX|TRIGGER|SEQUENCE [IF EXISTS] a, b`, `ALTER TABLE|VIEW|INDEX name`
 *   and its `RENAME TO name`, `REFERENCES name` (a foreign key tying a table to the ledger),
 *   `COMMENT ON TABLE name`;
 * - a write to SQLite's `sqlite_sequence` in a text naming a reserved relation anywhere (its row
 *   is named in a string: `update sqlite_sequence set seq = ... where name = '_mini_dbt_node_runs'`
 *   would make the ledger's next ids fail).
 *
 * A relation counts by its last name part (`w._mini_dbt_runs` through an attached alias is the
 * ledger as much as `main."_MINI_DBT_RUNS"`). Reads are not writes: `select ... from _mini_dbt_runs`,
 * `insert into mine select * from _mini_dbt_runs` or `update mine ... from _mini_dbt_runs` name no
 * reserved relation as a target.
 *
 * SQLite has no dynamic SQL, so on SQLite a statement can write only what it names, and the names
 * it writes stand where these forms put them (sqlite_master edits need writable_schema, which
 * better-sqlite3's SQLITE_DBCONFIG_DEFENSIVE refuses). On PostgreSQL (`postgres`: E'...' strings
 * honour backslashes, and a dollar quote's body is read as SQL, so a DO block's direct statements
 * are seen) dynamic SQL (EXECUTE of a built string, a function defined earlier) is beyond any scan.
 */
export interface ReservedWrite {
  /** The reserved relation, as the SQL names it (unquoted). */
  readonly name: string;
  /** What the statement does to it, as SQL words (`delete from`, `drop table`, `create trigger on`...). */
  readonly action: string;
  /** The character offset of the name in the text. */
  readonly offset: number;
}

interface Token {
  /** A word as written, a quoted name or string unquoted, or one punctuation character. */
  readonly text: string;
  readonly kind: 'word' | 'name' | 'punct';
  readonly offset: number;
}

/** A character of a bare word: ASCII letters, digits, `_`, `$`, and anything past ASCII (as SQLite reads names). */
function isWordCode(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36 || code >= 0x80;
}

function tokenize(sql: string, postgres: boolean): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (postgres && (c === 'E' || c === 'e') && sql[i + 1] === "'" && !(i > 0 && isWordCode(sql[i - 1]!))) {
      // PostgreSQL's escape string: a backslash escapes the next character (a quote too).
      let j = i + 2;
      let text = '';
      while (j < sql.length) {
        if (sql[j] === '\\') { text += sql[j + 1] ?? ''; j += 2; continue; }
        if (sql[j] === "'") {
          if (sql[j + 1] === "'") { text += "'"; j += 2; continue; }
          j++;
          break;
        }
        text += sql[j];
        j++;
      }
      tokens.push({ text, kind: 'name', offset: i });
      i = j;
      continue;
    }
    const skipped = skipQuoted(sql, i);
    if (skipped !== i) {
      if (c === "'" || c === '"' || c === '`') {
        const body = sql.slice(i + 1, sql[skipped - 1] === c && skipped - 1 > i ? skipped - 1 : skipped);
        tokens.push({ text: body.split(c + c).join(c), kind: 'name', offset: i });
      } else if (c === '[') {
        tokens.push({ text: sql.slice(i + 1, sql[skipped - 1] === ']' ? skipped - 1 : skipped), kind: 'name', offset: i });
      }
      // A comment is no token (and separates the words around it).
      i = skipped;
      continue;
    }
    if (postgres && c === '$') {
      // A dollar quote ($$ or $tag$) is read through, its body as SQL (a DO block's statements); $1 is a parameter.
      const marker = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$|^\$[0-9]+/.exec(sql.slice(i, i + 64));
      i += marker ? marker[0].length : 1;
      continue;
    }
    if (postgres && (c === 'U' || c === 'u') && sql[i + 1] === '&' && sql[i + 2] === '"' && !(i > 0 && isWordCode(sql[i - 1]!))) {
      // PostgreSQL's U&"..." name: \XXXX and \+XXXXXX are characters.
      const end = skipQuoted(sql, i + 2);
      const body = sql.slice(i + 3, sql[end - 1] === '"' && end - 1 > i + 2 ? end - 1 : end).split('""').join('"');
      const text = body.replace(/\\(\+[0-9A-Fa-f]{6}|[0-9A-Fa-f]{4}|\\)/g, (_m, code: string) => (code === '\\' ? '\\' : String.fromCodePoint(parseInt(code.replace('+', ''), 16))));
      tokens.push({ text, kind: 'name', offset: i });
      i = end;
      continue;
    }
    if (isWordCode(c)) {
      let j = i + 1;
      while (j < sql.length && isWordCode(sql[j]!) && !(postgres && sql[j] === '$')) j++;
      tokens.push({ text: sql.slice(i, j), kind: 'word', offset: i });
      i = j;
      continue;
    }
    if (c === '.' || c === ',' || c === '(' || c === ')' || c === ';') tokens.push({ text: c, kind: 'punct', offset: i });
    i++;
  }
  return tokens;
}

/** The reserved relations `sql` would create, change or drop (empty: it touches none). */
export function reservedWrites(sql: string, options: { readonly postgres?: boolean } = {}): ReservedWrite[] {
  const tokens = tokenize(sql, options.postgres ?? false);
  const found: ReservedWrite[] = [];
  const word = (i: number): string | undefined => (tokens[i]?.kind === 'word' ? tokens[i]!.text.toLowerCase() : undefined);
  const isName = (i: number): boolean => tokens[i] !== undefined && tokens[i]!.kind !== 'punct';
  /** The qualified name starting at i: its last part and the index after it (undefined: no name there). */
  const qualified = (i: number): { last: Token; next: number } | undefined => {
    if (!isName(i)) return undefined;
    let at = i;
    while (tokens[at + 1]?.text === '.' && tokens[at + 1]!.kind === 'punct' && isName(at + 2)) at += 2;
    return { last: tokens[at]!, next: at + 1 };
  };
  let sequenceChecked = false;
  const check = (i: number, action: string): number => {
    const name = qualified(i);
    if (!name) return i;
    if (isReservedName(name.last.text)) found.push({ name: name.last.text, action, offset: name.last.offset });
    // SQLite's AUTOINCREMENT counters: a row of sqlite_sequence belongs to its table, named in a string.
    else if (foldAsciiCase(name.last.text) === 'sqlite_sequence' && !sequenceChecked) {
      sequenceChecked = true;
      const reserved = tokens.find((t) => t.kind !== 'punct' && isReservedName(t.text));
      if (reserved) found.push({ name: reserved.text, action: `${action} sqlite_sequence for`, offset: reserved.offset });
    }
    return name.next;
  };
  /** Names separated by commas (DROP TABLE a, b; TRUNCATE a, b). */
  const checkList = (i: number, action: string): void => {
    let at = check(i, action);
    while (tokens[at]?.text === ',' && tokens[at]!.kind === 'punct') at = check(at + 1, action);
  };
  const skipWords = (i: number, words: readonly string[]): number => {
    let at = i;
    while (word(at) !== undefined && words.includes(word(at)!)) at++;
    return at;
  };
  /** The index of the first bare `word` from i on before any `;`, or -1. */
  const findWord = (i: number, wanted: string): number => {
    for (let at = i; at < tokens.length; at++) {
      if (tokens[at]!.kind === 'punct' && tokens[at]!.text === ';') return -1;
      if (word(at) === wanted) return at;
    }
    return -1;
  };

  for (let i = 0; i < tokens.length; i++) {
    const w = word(i);
    if (w === undefined) continue;
    switch (w) {
      case 'insert': {
        let at = i + 1;
        if (word(at) === 'or') at += 2;
        if (word(at) === 'into') check(at + 1, 'insert into');
        break;
      }
      case 'replace':
        if (word(i + 1) === 'into') check(i + 2, 'replace into');
        break;
      case 'update': {
        let at = i + 1;
        if (word(at) === 'or') at += 2;
        if (word(at) === 'only') at++;
        check(at, 'update');
        break;
      }
      case 'delete':
        if (word(i + 1) === 'from') check(skipWords(i + 2, ['only']), 'delete from');
        break;
      case 'truncate':
        checkList(skipWords(i + 1, ['table', 'only']), 'truncate');
        break;
      case 'copy': {
        const name = qualified(i + 1);
        if (name && (word(name.next) === 'from' || tokens[name.next]?.text === '(')) check(i + 1, 'copy into');
        break;
      }
      case 'references':
        check(i + 1, 'reference');
        break;
      case 'comment':
        if (word(i + 1) === 'on') check(skipWords(i + 2, ['table', 'view', 'index', 'column', 'materialized']), 'comment on');
        break;
      case 'drop': {
        const at = skipWords(i + 1, ['materialized']);
        const kind = word(at);
        if (kind === 'table' || kind === 'view' || kind === 'index' || kind === 'trigger' || kind === 'sequence') {
          let nameAt = at + 1;
          if (word(nameAt) === 'concurrently') nameAt++;
          if (word(nameAt) === 'if' && word(nameAt + 1) === 'exists') nameAt += 2;
          checkList(nameAt, `drop ${kind}`);
          // PostgreSQL's DROP TRIGGER name ON table.
          if (kind === 'trigger') {
            const on = findWord(nameAt, 'on');
            if (on >= 0) check(on + 1, 'drop trigger on');
          }
        }
        break;
      }
      case 'alter': {
        const kind = word(skipWords(i + 1, ['materialized']));
        if (kind === 'table' || kind === 'view' || kind === 'index' || kind === 'sequence') {
          let nameAt = skipWords(i + 1, ['materialized']) + 1;
          if (word(nameAt) === 'if' && word(nameAt + 1) === 'exists') nameAt += 2;
          if (word(nameAt) === 'only') nameAt++;
          const after = check(nameAt, `alter ${kind}`);
          const rename = findWord(after, 'rename');
          if (rename >= 0 && word(rename + 1) === 'to') check(rename + 2, `alter ${kind} rename to`);
        }
        break;
      }
      case 'create': {
        let at = i + 1;
        if (word(at) === 'or' && word(at + 1) === 'replace') at += 2;
        at = skipWords(at, ['temp', 'temporary', 'unique', 'virtual', 'unlogged', 'materialized', 'recursive', 'constraint', 'global', 'local']);
        const kind = word(at);
        if (kind !== 'table' && kind !== 'view' && kind !== 'index' && kind !== 'trigger' && kind !== 'sequence' && kind !== 'rule' && kind !== 'policy') break;
        let nameAt = at + 1;
        if (word(nameAt) === 'concurrently') nameAt++;
        if (word(nameAt) === 'if' && word(nameAt + 1) === 'not' && word(nameAt + 2) === 'exists') nameAt += 3;
        // PostgreSQL's CREATE INDEX ON t (...) has no name.
        const after = word(nameAt) === 'on' ? nameAt : check(nameAt, `create ${kind}`);
        if (kind === 'index' || kind === 'trigger' || kind === 'rule' || kind === 'policy') {
          // The table it is made on: the first ON (a rule: ON <event> TO <table>).
          const on = findWord(after, 'on');
          if (on >= 0 && kind === 'rule') {
            const to = findWord(on, 'to');
            if (to >= 0) check(to + 1, 'create rule on');
          } else if (on >= 0) {
            check(skipWords(on + 1, ['only']), `create ${kind} on`);
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return found;
}

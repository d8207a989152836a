/**
 * The tool binds parameters as better-sqlite3 does: `?` in order, or
 * `@name` / `:name` with one object. PostgreSQL numbers them (`$1`). This
 * rewrites a statement's placeholders outside string literals, quoted
 * identifiers, comments and dollar-quoted bodies, and orders the values.
 */
export function numberPlaceholders(sql: string, params: readonly unknown[]): { text: string; values: unknown[] | undefined } {
  const named = params.length === 1 && isPlainObject(params[0]) ? (params[0] as Record<string, unknown>) : undefined;
  const positional = named ? [] : params.length === 1 && Array.isArray(params[0]) ? (params[0] as unknown[]) : [...params];
  const values: unknown[] = [];
  const slots = new Map<string, number>();
  let out = '';
  let i = 0;
  let next = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64)) && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end === -1 ? n : end + tag.length;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '?' && !named) {
      values.push(toValue(positional[next++]));
      out += `$${values.length}`;
      i++;
    } else if (named && (c === '@' || (c === ':' && sql[i + 1] !== ':' && sql[i - 1] !== ':')) && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))![0];
      if (!Object.hasOwn(named, name)) {
        out += c;
        i++;
        continue;
      }
      let slot = slots.get(name);
      if (slot === undefined) {
        values.push(toValue(named[name]));
        slot = values.length;
        slots.set(name, slot);
      }
      out += `$${slot}`;
      i += 1 + name.length;
    } else {
      out += c;
      i++;
    }
  }
  // Text already numbered ($1, as kysely's PostgreSQL compiler writes it) takes the values as given.
  if (values.length === 0 && positional.length > 0) return { text: out, values: positional.map(toValue) };
  return { text: out, values: values.length > 0 ? values : undefined };
}

function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date || Buffer.isBuffer(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** better-sqlite3 binds bigints and booleans as numbers; PostgreSQL takes them as text. */
function toValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return null;
  return value;
}

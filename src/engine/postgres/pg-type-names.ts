/**
 * The SQL names of the types a server described for a statement's result
 * (type OID and type modifier, from its RowDescription), as format_type()
 * writes them: what CREATE TABLE AS would declare the columns as. The
 * server is asked once for the types it has not named yet; the names of
 * pg_catalog's own types (OIDs below 10000, fixed by initdb, always first on
 * the search path) are kept for the process.
 */
import { PgError } from './pg-sync-client.js';

/** What resolving names needs of a connection: one query. */
export interface PgTypeNameReader {
  query(sql: string, params: readonly unknown[]): { rows: unknown[] };
}

interface TypeName {
  readonly name: string;
  /** A pseudo-type (record, anyelement...): no column can have it. */
  readonly pseudo: boolean;
}

/** OIDs below this are pg_catalog's (genbki's, FirstGenbkiObjectId). */
const FIRST_NON_CATALOG_OID = 10000;
const CATALOG_TYPES = new Map<string, TypeName>();

const keyOf = (oid: number, modifier: number): string => `${oid}:${modifier}`;

/**
 * The type names of `columns`' types in order. A pseudo-type is refused as
 * CREATE TABLE AS refuses it (42P16), and so is a name used twice (42701).
 */
export function pgColumnTypes(reader: PgTypeNameReader, names: readonly string[], types: readonly (readonly [number, number])[]): { name: string; type: string }[] {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new PgError({ message: `column "${name}" specified more than once`, code: '42701' });
    seen.add(name);
  }
  const known = new Map<string, TypeName>();
  const missing: (readonly [number, number])[] = [];
  for (const [oid, modifier] of types) {
    const key = keyOf(oid, modifier);
    const cached = CATALOG_TYPES.get(key);
    if (cached) known.set(key, cached);
    else if (!missing.some(([o, m]) => o === oid && m === modifier)) missing.push([oid, modifier]);
  }
  if (missing.length > 0) {
    const rows = reader.query(
      `select format_type(u.oid, u.modifier) as name, t.typtype = 'p' as pseudo
       from unnest($1::oid[], $2::int4[]) with ordinality as u(oid, modifier, i) left join pg_type t on t.oid = u.oid
       order by u.i`,
      [missing.map(([oid]) => oid), missing.map(([, modifier]) => modifier)],
    ).rows as { name: string; pseudo: boolean | null }[];
    missing.forEach(([oid, modifier], i) => {
      const name: TypeName = { name: rows[i]!.name, pseudo: rows[i]!.pseudo === true };
      known.set(keyOf(oid, modifier), name);
      if (oid < FIRST_NON_CATALOG_OID) CATALOG_TYPES.set(keyOf(oid, modifier), name);
    });
  }
  return names.map((name, i) => {
    const [oid, modifier] = types[i]!;
    const type = known.get(keyOf(oid, modifier))!;
    if (type.pseudo) throw new PgError({ message: `column "${name}" has pseudo-type ${type.name}`, code: '42P16' });
    return { name, type: type.name };
  });
}

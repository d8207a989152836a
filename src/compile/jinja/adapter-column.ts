import { splitKeywordArgs } from '../keyword-args.js';
import { callableNamespace } from './callable-namespaces.js';

const STRING_TYPES = ['text', 'character varying', 'character', 'varchar'];
const FLOAT_TYPES = ['real', 'float4', 'float', 'double precision', 'float8', 'double'];
const INTEGER_TYPES = ['smallint', 'integer', 'bigint', 'smallserial', 'serial', 'bigserial', 'int2', 'int4', 'int8', 'serial2', 'serial4', 'serial8'];
const NUMERIC_TYPES = ['numeric', 'decimal'];
/** dbt's base Column translates only STRING; dbt-sqlite adds no labels of its own. */
const TYPE_LABELS: Readonly<Record<string, string>> = { STRING: 'TEXT' };

type Size = number | null;

/**
 * dbt's Column (dbt-adapters' base/column.py), which dbt-sqlite uses as is:
 * what `adapter.get_columns_in_relation` returns and `api.Column` builds.
 * A column SQLite declares without a type is TEXT, as dbt-sqlite reads it.
 */
export class AdapterColumn {
  constructor(
    readonly column: string,
    readonly dtype: string,
    readonly char_size: Size = null,
    readonly numeric_precision: Size = null,
    readonly numeric_scale: Size = null,
  ) {}

  get name(): string {
    return this.column;
  }
  get quoted(): string {
    return `"${this.column}"`;
  }
  get data_type(): string {
    if (this.is_string()) return columnString(this.string_size());
    if (this.is_numeric()) return numericType(this.dtype, this.numeric_precision, this.numeric_scale);
    return this.dtype;
  }
  get expanded_data_type(): string {
    return this.data_type;
  }
  is_string(): boolean {
    return STRING_TYPES.includes(this.dtype.toLowerCase());
  }
  is_number(): boolean {
    return this.is_integer() || this.is_numeric() || this.is_float();
  }
  is_float(): boolean {
    return FLOAT_TYPES.includes(this.dtype.toLowerCase());
  }
  is_integer(): boolean {
    return INTEGER_TYPES.includes(this.dtype.toLowerCase());
  }
  is_numeric(): boolean {
    return NUMERIC_TYPES.includes(this.dtype.toLowerCase());
  }
  string_size(): number {
    if (!this.is_string()) throw new Error('Called string_size() on non-string field!');
    return this.dtype === 'text' || this.char_size === null ? 256 : this.char_size;
  }
  can_expand_to(other: unknown): boolean {
    if (!(other instanceof AdapterColumn) || !this.is_string() || !other.is_string()) return false;
    return other.string_size() > this.string_size();
  }
  literal(value: unknown): string {
    return `${String(value)}::${this.data_type}`;
  }
  toString(): string {
    return `<Column ${this.name} (${this.data_type})>`;
  }
  get [Symbol.toStringTag](): string {
    return 'Column';
  }
}

function columnString(size: unknown): string {
  return `character varying(${String(size)})`;
}

function numericType(dtype: unknown, precision: unknown, scale: unknown): string {
  const missing = (v: unknown): boolean => v === null || v === undefined;
  return missing(precision) || missing(scale) ? String(dtype) : `${String(dtype)}(${String(precision)},${String(scale)})`;
}

function translateType(dtype: unknown): string {
  const text = String(dtype);
  return TYPE_LABELS[text.toUpperCase()] ?? text;
}

const toSize = (value: unknown): Size => (value === null || value === undefined ? null : Number(value));

/** dbt's Column.from_description: `varchar(20)` has a char_size, `numeric(10,2)` a precision and scale. */
export function columnFromDescription(name: string, rawType: string): AdapterColumn {
  const match = /^([^(]+)(\([^)]+\))?/.exec(rawType);
  if (!match) throw new Error(`Could not interpret data type "${rawType}"`);
  const parts = match[2] === undefined ? [] : match[2].slice(1, -1).split(',');
  const integer = (part: string): number => {
    if (!/^\s*[+-]?\d+\s*$/.test(part)) throw new Error(`Could not interpret data_type "${rawType}": could not convert "${part}" to an integer`);
    return Number(part);
  };
  if (parts.length === 1) return new AdapterColumn(name, match[1]!, integer(parts[0]!));
  if (parts.length === 2) return new AdapterColumn(name, match[1]!, null, integer(parts[0]!), integer(parts[1]!));
  return new AdapterColumn(name, match[1]!);
}

/** A column of a SQLite relation as dbt-sqlite builds it: Column(name, type or 'TEXT'), no sizes. */
export function sqliteColumn(name: string, declaredType: string): AdapterColumn {
  return new AdapterColumn(name, declaredType === '' ? 'TEXT' : declaredType);
}

/**
 * dbt-postgres's PostgresColumn: text, and character varying without a size, keep their own name as
 * data_type (the base Column would write character varying(256)).
 */
export class PostgresColumn extends AdapterColumn {
  override get data_type(): string {
    const t = this.dtype.toLowerCase();
    if (t === 'text' || (t === 'character varying' && this.char_size === null)) return this.dtype;
    return super.data_type;
  }
}

/**
 * A column of a PostgreSQL relation as dbt-postgres reads it: its type from the catalog
 * (`character varying(20)`, `numeric(12,2)`, `timestamp without time zone`), sizes split off.
 */
export function postgresColumn(name: string, formattedType: string): AdapterColumn {
  const c = columnFromDescription(name, formattedType);
  return new PostgresColumn(c.column, c.dtype.trim(), c.char_size, c.numeric_precision, c.numeric_scale);
}

/** Each adapter's Column, as dbt's adapters each name their Column class (by the engine's name). */
const ADAPTER_COLUMNS: Readonly<Record<string, (name: string, type: string) => AdapterColumn>> = { sqlite: sqliteColumn, postgres: postgresColumn };

/** The column builder of the adapter `engineName` (SQLite's for an engine without its own). */
export function adapterColumnOf(engineName: string): (name: string, type: string) => AdapterColumn {
  return ADAPTER_COLUMNS[engineName] ?? sqliteColumn;
}

/**
 * The template's `api.Column`: callable as dbt's class is (`api.Column('id',
 * 'integer')`), with its class methods. A plain object of functions, so no
 * class constructor reaches templates.
 */
export function columnApi(): (...args: unknown[]) => AdapterColumn {
  const build = (...args: unknown[]): AdapterColumn => {
    const { positional, keywords } = splitKeywordArgs(args);
    const at = (i: number, key: string): unknown => positional[i] ?? keywords[key];
    return new AdapterColumn(String(at(0, 'column')), String(at(1, 'dtype')), toSize(at(2, 'char_size')), toSize(at(3, 'numeric_precision')), toSize(at(4, 'numeric_scale')));
  };
  return callableNamespace(build, {
    create: (name: unknown, labelOrDtype: unknown) => new AdapterColumn(String(name), translateType(labelOrDtype)),
    translate_type: translateType,
    string_type: columnString,
    numeric_type: numericType,
    from_description: (name: unknown, rawType: unknown) => columnFromDescription(String(name), String(rawType)),
    TYPE_LABELS: { ...TYPE_LABELS },
  });
}

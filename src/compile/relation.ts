import { quoteIdentifier } from '../engine/quote-identifier.js';
import { splitKeywordArgs } from './keyword-args.js';

export type RelationType = 'table' | 'view' | 'ephemeral' | null;

/**
 * What `ref()`, `source()` and `this` return: renders schema-qualified, as
 * dbt-sqlite renders relations (`"main"."orders"`), so an import CTE named
 * like the model it selects from (`with orders as (select * from
 * {{ ref('orders') }})`) does not refer to itself; exposes dbt's attributes
 * to templates.
 */
export class Relation {
  readonly database = 'main';

  constructor(
    readonly identifier: string,
    readonly type: RelationType = null,
    private readonly rendered?: string,
    readonly schema = 'main',
  ) {}

  get name(): string {
    return this.identifier;
  }
  get table(): string {
    return this.identifier;
  }
  get is_table(): boolean {
    return this.type === 'table';
  }
  get is_view(): boolean {
    return this.type === 'view';
  }
  get is_cte(): boolean {
    return this.type === 'ephemeral';
  }
  get is_materialized_view(): boolean {
    return false;
  }
  /** dbt's path: the parts a relation names (database is never rendered by dbt-sqlite). */
  get path(): Record<string, string | null> {
    return { database: this.database, schema: this.schema, identifier: this.identifier === '' ? null : this.identifier };
  }
  get quote_policy(): Record<string, boolean> {
    return { database: true, schema: true, identifier: true };
  }
  get include_policy(): Record<string, boolean> {
    return { database: false, schema: true, identifier: true };
  }
  /** The relation without any filtering wrapper (dbt's `.render()`); a schema-only relation renders its schema. */
  render(): string {
    return this.identifier === '' ? quoteIdentifier(this.schema) : `${quoteIdentifier(this.schema)}.${quoteIdentifier(this.identifier)}`;
  }
  /** dbt's `.without_identifier()`: the relation's schema, as a relation. */
  without_identifier(): Relation {
    return new Relation('', null, undefined, this.schema);
  }
  /** dbt's `.include(schema=False)` etc.: the same relation rendered with fewer parts (database is never rendered, as in dbt-sqlite). */
  include(...args: unknown[]): Relation | string {
    const { positional, keywords } = splitKeywordArgs(args);
    // include(database, schema, identifier), positionally or by keyword.
    const schema = (keywords.schema ?? positional[1]) !== false;
    const identifier = (keywords.identifier ?? positional[2]) !== false && this.identifier !== '';
    const text = [schema ? quoteIdentifier(this.schema) : undefined, identifier ? quoteIdentifier(this.identifier) : undefined].filter((p) => p !== undefined).join('.');
    return new Relation(this.identifier, this.type, text, this.schema);
  }
  /**
   * dbt's relations are mappings too (FakeAPIObject): packages test
   * `relation.get('metadata', {}).get('type', '').endswith('Relation')`
   * (dbt_utils' _is_relation) and read `path`, `type` and the policies.
   */
  get(key: unknown, fallback: unknown = null): unknown {
    const dict: Record<string, unknown> = {
      metadata: { type: 'SQLiteRelation' },
      path: this.path,
      type: this.type,
      quote_policy: this.quote_policy,
      include_policy: this.include_policy,
    };
    return Object.prototype.hasOwnProperty.call(dict, String(key)) ? dict[String(key)] : fallback;
  }
  /** dbt's `relation.quote(...)`, `relation.incorporate(path=..., type=...)`: mini-dbt always quotes; incorporate gives a new relation. */
  quote(): Relation {
    return this;
  }
  incorporate(...args: unknown[]): Relation {
    const { keywords } = splitKeywordArgs(args);
    const type = keywords.type === 'table' || keywords.type === 'view' ? keywords.type : this.type;
    const path = (keywords.path ?? {}) as { schema?: unknown; identifier?: unknown };
    return new Relation(path.identifier === undefined ? this.identifier : String(path.identifier), type, undefined, path.schema === undefined ? this.schema : String(path.schema));
  }
  /** dbt's `.replace_path(schema=..., identifier=...)`. */
  replace_path(...args: unknown[]): Relation {
    const { keywords } = splitKeywordArgs(args);
    return this.incorporate({ __keywords: true, path: keywords });
  }
  toString(): string {
    return this.rendered ?? this.render();
  }
}

import { quoteIdentifier } from '../engine/quote-identifier.js';

export type RelationType = 'table' | 'view' | 'ephemeral' | null;

/**
 * What `ref()`, `source()` and `this` return: renders as a quoted
 * identifier, and exposes dbt's attributes to templates.
 */
export class Relation {
  readonly database = 'main';
  readonly schema = 'main';

  constructor(
    readonly identifier: string,
    readonly type: RelationType = null,
    private readonly rendered?: string,
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
  /** The relation without any filtering wrapper (dbt's `.render()`). */
  render(): string {
    return quoteIdentifier(this.identifier);
  }
  toString(): string {
    return this.rendered ?? quoteIdentifier(this.identifier);
  }
}

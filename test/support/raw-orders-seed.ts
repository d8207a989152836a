/** One raw row of a small hand-made feed: a version of an order, as it landed. */
export interface RawOrderRow {
  readonly load_date: string;
  readonly order_id: number;
  readonly order_date: string;
  readonly status: string;
  readonly amount: number;
}

/**
 * seeds/raw_orders.csv and its yml for a hand-made feed: event_time
 * order_date, loaded_at load_date, the example's column types and indexes.
 */
export function rawOrdersSeedFiles(rows: readonly RawOrderRow[]): Record<string, string> {
  return {
    'seeds/raw_orders.csv': `load_date,order_id,order_date,status,amount\n${rows.map((r) => [r.load_date, r.order_id, r.order_date, r.status, r.amount].join(',')).join('\n')}\n`,
    'seeds/raw_orders.yml': 'seeds:\n  - name: raw_orders\n    config:\n      event_time: order_date\n      loaded_at: load_date\n      column_types: {load_date: TEXT, order_id: INTEGER, order_date: TEXT, status: TEXT, amount: REAL}\n      indexes:\n        - columns: [order_date, load_date]\n        - columns: [load_date]\n',
  };
}

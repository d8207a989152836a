/**
 * Fit drawn amounts to given sums: every order belongs to at most one group,
 * and each group's amounts are scaled so that they add up to the group's
 * target exactly, in whole cents (the rounding remainder goes one cent at a
 * time to the group's largest orders). The shape of the draw is kept: only
 * its level moves.
 */
import type { Order } from './build-orders.js';

export interface AmountGroup {
  readonly name: string;
  readonly orders: readonly Order[];
  /** The sum the group's amounts must have, in cents. */
  readonly cents: number;
}

/** Lowest and highest amount a fitted order may get, in cents. */
export const FITTED_AMOUNT_RANGE = { min: 500, max: 300_000 } as const;

export function fitAmounts(groups: readonly AmountGroup[]): void {
  for (const { name, orders, cents } of groups) {
    if (orders.length === 0) throw new Error(`amount group ${name} has no orders for ${cents} cents`);
    const drawn = orders.reduce((a, o) => a + o.cents, 0);
    const scaled = orders.map((o) => Math.floor((o.cents * cents) / drawn));
    let rest = cents - scaled.reduce((a, c) => a + c, 0);
    const largestFirst = orders.map((_, i) => i).sort((a, b) => orders[b]!.cents - orders[a]!.cents || a - b);
    for (let k = 0; rest > 0; k = (k + 1) % orders.length, rest--) scaled[largestFirst[k]!]! += 1;
    orders.forEach((o, i) => {
      const c = scaled[i]!;
      if (c < FITTED_AMOUNT_RANGE.min || c > FITTED_AMOUNT_RANGE.max) {
        throw new Error(`amount group ${name}: order ${o.id} would get ${c} cents`);
      }
      o.cents = c;
    });
  }
}

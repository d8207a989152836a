/** A calendar month written `YYYY-MM` (a monthly partition), from 1000-01 to 9998-12. */
const ISO_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isIsoMonth(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const m = ISO_MONTH.exec(text);
  return m !== null && Number(m[1]) >= 1000 && Number(m[1]) <= 9998;
}

/** The month after a `YYYY-MM` month (undefined for anything else). */
export function nextIsoMonth(text: string): string | undefined {
  if (!isIsoMonth(text)) return undefined;
  const [y, m] = text.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** How many months from `first` to `last`, both counted (undefined unless both are months). */
export function isoMonthSpan(first: string, last: string): number | undefined {
  if (!isIsoMonth(first) || !isIsoMonth(last)) return undefined;
  const index = (t: string) => Number(t.slice(0, 4)) * 12 + Number(t.slice(5, 7));
  return index(last) - index(first) + 1;
}

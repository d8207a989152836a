/**
 * How dbt's `show` prints a column of numbers that are not all integers:
 * dbt builds an agate table whose integer columns keep Python ints (its own
 * Integer type, printed as they are) and whose other numeric columns become
 * agate Numbers, which print_table formats with babel as `#,##0.<places>`:
 * thousands grouped with commas, every value with the column's largest
 * count of decimal places (from each value's shortest decimal form), at
 * most three; a column cut to three places gets `…` after each value.
 */

/** At most this many decimal places (agate's print_table max_precision). */
const MAX_PLACES = 3;
const TRUNCATED = '…';

/** The shortest decimal form of a finite number as sign, digits and the power of ten of the last digit. */
function decimalOf(value: number): { negative: boolean; digits: string; exponent: number } {
  const text = String(Math.abs(value));
  const [mantissa = '0', power = '0'] = text.split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  return { negative: value < 0 || Object.is(value, -0), digits, exponent: Number(power) - fraction.length };
}

/** Decimal places of a number's shortest form, trailing zeros dropped (Python's Decimal.normalize()). */
function placesOf(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const { digits, exponent } = decimalOf(value);
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  return Math.max(0, -(exponent + Math.min(trailing, Math.max(0, -exponent))));
}

/** `digits` x 10^exponent rounded half to even at `places` decimals, as integer and fraction digit strings. */
function rounded(digits: string, exponent: number, places: number): { whole: string; fraction: string } {
  // Scale so the number is an integer count of 10^-places units, with the dropped digits kept aside.
  const shift = exponent + places;
  let kept: string;
  let dropped = '';
  if (shift >= 0) kept = digits + '0'.repeat(shift);
  else {
    const cut = digits.length + shift;
    kept = cut > 0 ? digits.slice(0, cut) : '0';
    dropped = cut > 0 ? digits.slice(cut) : '0'.repeat(-cut) + digits;
  }
  let units = BigInt(kept || '0');
  if (dropped !== '') {
    const half = '5' + '0'.repeat(dropped.length - 1);
    const above = dropped > half;
    const tie = dropped === half;
    if (above || (tie && units % 2n === 1n)) units += 1n;
  }
  const text = units.toString().padStart(places + 1, '0');
  return { whole: text.slice(0, text.length - places), fraction: places > 0 ? text.slice(text.length - places) : '' };
}

const grouped = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The formatter of a column whose values are `values` (numbers; nulls skipped). */
export function agateNumberFormatter(values: readonly (number | null | undefined)[]): (value: number) => string {
  let places = 0;
  for (const v of values) if (typeof v === 'number') places = Math.max(places, placesOf(v));
  const truncated = places > MAX_PLACES;
  const shown = Math.min(places, MAX_PLACES);
  return (value) => {
    if (!Number.isFinite(value)) return String(value);
    const { negative, digits, exponent } = decimalOf(value);
    const { whole, fraction } = rounded(digits, exponent, shown);
    // A negative value keeps its sign when it rounds to zero, as babel prints it (-0.0004 at three places: -0.000).
    return `${negative ? '-' : ''}${grouped(whole)}${fraction ? `.${fraction}` : ''}${truncated ? TRUNCATED : ''}`;
  };
}

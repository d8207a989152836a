/** What a seed column's values have shown so far, for type inference (seed-types.ts). */

/**
 * Inference state of a column. The numbers are ordered, and two of them
 * combine to the wider (`Math.max`); any other two different states combine
 * to text (a column of dates and booleans is text, as in agate).
 */
export const ValueClass = {
  None: 0,
  /** A whole number within 32 bits. */
  Integer: 1,
  /** A whole number beyond 32 bits, within 64. */
  BigInteger: 2,
  Real: 3,
  Date: 4,
  /** YYYY-MM-DD HH:MM:SS (agate's DateTime with dbt's format). */
  Timestamp: 5,
  /** YYYY-MM-DDTHH:MM[:SS[.ffffff]] (dbt's ISODateTime). */
  IsoTimestamp: 6,
  Boolean: 7,
  Text: 8,
} as const;
export type ValueClass = (typeof ValueClass)[keyof typeof ValueClass];

/** The state of a column that was `state` and then showed a value of class `cls`. */
export function combineClasses(state: ValueClass, cls: ValueClass): ValueClass {
  if (state === cls || cls === ValueClass.None) return state;
  if (state === ValueClass.None) return cls;
  if (state <= ValueClass.Real && cls <= ValueClass.Real) return state > cls ? state : cls;
  return ValueClass.Text;
}

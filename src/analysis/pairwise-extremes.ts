/**
 * The smaller and the larger of two SQL values, NULL when either is NULL
 * (SQLite's two-argument min/max). Written as CASE so that the same text
 * runs on every engine: PostgreSQL's least/greatest skip NULLs, and SQLite
 * has neither.
 */
export const lesser = (a: string, b: string): string => `(case when ${a} is null or ${b} is null then null when ${a} < ${b} then ${a} else ${b} end)`;

export const greater = (a: string, b: string): string => `(case when ${a} is null or ${b} is null then null when ${a} > ${b} then ${a} else ${b} end)`;

/**
 * A value as one word of a shell command line that mini-dbt prints for the
 * user to run: as it is when it is plain (dates, names, numbers), else in
 * double quotes (an hourly partition `2026-03-02 06:00:00` has a space).
 */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_.,:+@%/=-]+$/.test(value) ? value : `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
}
